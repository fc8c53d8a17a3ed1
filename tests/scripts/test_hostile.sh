#!/bin/sh
# Hostile input: unknown words, huge numbers, a 100 KB line, control
# characters, invalid UTF-8, blank lines, pipes alone. mdsim must not
# crash (exit 0 or 1, never a signal or a sanitizer report), must answer
# each bad line with a `%` error, and must leave the configuration as it
# was.
# usage: test_hostile.sh MDSIM
mdsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
lab="$dir/lab.db"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A configured lab to protect.
cat > "$dir/setup.txt" <<'CFG'
configure terminal
interface gigabitethernet 2/2
ip address 10.1.1.1 255.255.255.0
switchport mtu 3000
switchport description precious
no shutdown
end
copy running-config startup-config
CFG
"$mdsim" --db "$lab" replay "$dir/setup.txt" > /dev/null 2>&1 || fail "setup failed"
snapshot() {
    printf 'show running-config | exclude ^!Time\nshow startup-config | exclude ^!Time\nshow switchname\n' |
        "$mdsim" --db "$lab" --switch MDS1 > "$1" 2>&1
    printf 'show running-config | exclude ^!Time\n' | "$mdsim" --db "$lab" --switch MDS2 >> "$1" 2>&1
}
snapshot "$dir/before"
grep -q precious "$dir/before" || fail "setup not visible"

# feed NAME MODE: runs the file $dir/case on stdin (after `configure
# terminal` when MODE is config) and checks the outcome.
# WANT is "error" (a `%` line is required) or "quiet" (no output needed).
feed() {
    name=$1 mode=$2 want=$3
    if [ "$mode" = config ]; then
        { printf 'configure terminal\n'; cat "$dir/case"; } > "$dir/input"
    else
        cp "$dir/case" "$dir/input"
    fi
    "$mdsim" --db "$lab" < "$dir/input" > "$dir/out" 2> "$dir/err"
    rc=$?
    [ $rc -le 1 ] || fail "$name: exit code $rc (crash?)"
    if grep -q -e 'Sanitizer' -e 'runtime error' "$dir/err"; then
        fail "$name: sanitizer report: $(head -5 "$dir/err")"
    fi
    if [ "$want" = error ]; then
        grep -q '^%' "$dir/out" || fail "$name: no % error in output: $(head -c 300 "$dir/out")"
        [ $rc -eq 1 ] || fail "$name: exit code $rc, want 1"
    fi
    # the same bytes as a replayed script file
    "$mdsim" --db "$lab" replay "$dir/input" > "$dir/out2" 2> "$dir/err2"
    rc=$?
    [ $rc -le 1 ] || fail "$name (replay): exit code $rc"
    if grep -q -e 'Sanitizer' -e 'runtime error' "$dir/err2"; then
        fail "$name (replay): sanitizer report: $(head -5 "$dir/err2")"
    fi
    snapshot "$dir/after"
    cmp -s "$dir/before" "$dir/after" || fail "$name: configuration changed: $(diff "$dir/before" "$dir/after" | head -10)"
}

line() { printf '%s\n' "$1" > "$dir/case"; }

line "frobnicate the widgets";               feed "unknown words" exec error
line "show frobnicate";                      feed "unknown second word" exec error
line "frobnicate";                           feed "unknown word in config" config error
line "terminal length 99999999999999999999"; feed "huge number" exec error
line "terminal length -1";                   feed "negative number" exec error
line "sleep 18446744073709551617";           feed "2^64+1" exec error
for i in 1 2 3 4 5; do echo "sleep 2147483647"; done > "$dir/case"
feed "sleeps past the end of the 64-bit clock" exec error
line "switchport mtu 4294967297";            feed "2^32+1 at (config)" config error
line "interface gigabitethernet 99999999999/1"; feed "huge slot" config error
line "interface gigabitethernet 2/4294967298"; feed "huge port" config error
line "clock set 99:99:99 99 Foo 99999";      feed "bad clock" exec error
line "switchname %s%n%x%p";                  feed "format string name" config error
line "show clock | include %s%n";            feed "format string regex" exec quiet
line "show running-config | include (((((((((("; feed "bad regex" exec error
line "show clock | count | count | count | count | count | count | count | count | count | count | count | count | count | count | count | count | count";
                                              feed "too many pipes" exec error
line "|";                                     feed "a lone pipe" exec error
line "| include x";                           feed "a pipe first" exec error
line "show clock ||";                         feed "double pipe" exec error
line "show clock | | |";                      feed "empty filters" exec error
line "|";                                     feed "a lone pipe in config" config error

# a 100 KB line: as one word, as many words, and as a description
awk 'BEGIN { s = "show "; for (i = 0; i < 100000; i++) s = s "a"; print s }' > "$dir/case"
feed "100 KB word" exec error
awk 'BEGIN { s = "show"; for (i = 0; i < 50000; i++) s = s " x"; print s }' > "$dir/case"
feed "100 KB of words" exec error
{ printf 'interface gigabitethernet 2/2\n'; awk 'BEGIN { s = "switchport description "; for (i = 0; i < 100000; i++) s = s "d"; print s }'; } > "$dir/case"
feed "100 KB description" config error
awk 'BEGIN { s = "switchname "; for (i = 0; i < 100000; i++) s = s "n"; print s }' > "$dir/case"
feed "100 KB switch name" config error

# control characters and escape sequences
printf 'sh\001\002ow clock\n' > "$dir/case";        feed "control characters" exec error
printf '\033[A\033[B\033[2J\n' > "$dir/case";       feed "ANSI escapes" exec error
printf 'show\177\177\177\177 clock\n' > "$dir/case"; feed "DEL bytes" exec error
printf 'show cl\000ock extra\n' > "$dir/case";      feed "NUL byte" exec error
printf 'switchname x\000y\n' > "$dir/case";         feed "NUL in a name" config error
printf 'interface gigabitethernet 2/2\nswitchport description a\033[2Jb\007c\n' > "$dir/case"
feed "terminal escape in a description" config error
printf 'switchname a\tb\n' > "$dir/case";          feed "tab inside a name" config error
printf 'switchname bell\007\n' > "$dir/case";      feed "bell in a name" config error
printf '\r\n' > "$dir/case";                        feed "bare CR" exec quiet

# invalid UTF-8, and valid non-ASCII
printf '\377\376show clock\n' > "$dir/case";        feed "invalid UTF-8 prefix" exec error
printf 'show \303\050\n' > "$dir/case";              feed "invalid UTF-8 word" exec error
printf 'switchname \300\200\n' > "$dir/case";        feed "overlong UTF-8 name" config error
printf 'switchname caf\303\251\n' > "$dir/case";     feed "UTF-8 name" config error
printf 'interface gigabitethernet 2/2\nswitchport description bad\303\050x\n' > "$dir/case"
feed "invalid UTF-8 in a description" config error
printf 'interface gigabitethernet \342\200\2172/2\n' > "$dir/case"; feed "zero-width space" config error

# every byte value but newline, on one line
awk 'BEGIN { for (i = 1; i < 256; i++) if (i != 10) printf "%c", i; print "" }' > "$dir/case"
feed "all bytes" exec error

# empty and whitespace-only lines: no error, no change
printf '\n\n\n' > "$dir/case";                      feed "empty lines" exec quiet
printf '   \n\t\t\n \t \n' > "$dir/case";           feed "whitespace lines" config quiet
printf '\n' > "$dir/case"
"$mdsim" --db "$lab" < "$dir/case" > "$dir/out" 2>&1
[ $? -eq 0 ] || fail "an empty line is not an error"
grep -q '%' "$dir/out" && fail "an empty line printed an error: $(cat "$dir/out")"

# a stream of everything at once, in config mode, then exec
cat "$dir"/*.txt > /dev/null 2>&1
{
    printf 'configure terminal\ninterface gigabitethernet 2/2\n'
    printf 'no\nno no\nno shutdown shutdown\nswitchport mtu\nip address 1.2.3.4 255.255.255.255.0\n'
    printf 'ip address 256.1.1.1 255.0.0.0\ndescription\nexit\nexit\nexit\nexit\n'
} > "$dir/case"
feed "bad lines in (config-if)" exec error

# bad options are usage errors (exit 2), never taken for something else
for opt in "--speed abc" "--speed -1" "--speed nan" "--speed 1x" "--bogus"; do
    "$mdsim" --db "$lab" $opt lab list > /dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "option '$opt': exit $rc, want 2"
done

snapshot "$dir/after"
diff "$dir/before" "$dir/after" > "$dir/diff" || fail "configuration changed overall: $(cat "$dir/diff")"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all hostile-input checks passed"
