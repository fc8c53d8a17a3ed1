#!/bin/sh
# A lab file's starting configurations (`config SWITCH` ... `end-config`,
# docs/lab-files.md): applied by `lab create`, saved as each switch's
# startup-config, printed back by `lab show` (which re-creates the same
# lab); a line the switch refuses fails the file with file:line, the
# switch's error and no lab; `lab reset` brings back the starting
# configuration of one switch (--switch) or of all, factory for a switch
# without one, and says which.
# usage: test_lab_config.sh MDSIM
mdsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > "$dir/two.lab" <<'LAB'
seed 7
switch MDS1 chassis DS-C9506
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
switch MDS2 chassis DS-C9506
  module 2 DS-X9304-SMIP
  module 5 DS-X9530-SF2-K9
link MDS1 g2/1 MDS2 g2/1
conf MDS1   ! keywords abbreviate; the block is the switch's own syntax
! a comment line, skipped as the switch skips it
switchname edge1
vsan database
  vsan 100

interface gigabitethernet2/1
  ip address 10.1.1.1 255.255.255.0
  no shut
end-config   ! the block ends here
LAB
# show RUNNING|STARTUP DB SWITCH: the configuration the switch prints, no !Time
show() {
    printf '%s\n' "show $1-config" | "$mdsim" --db "$2" --switch "$3" replay - 2>&1 |
        grep -v -e '^!Time' -e '^!Startup config saved' -e "# show $1-config"
}

# 1. lab create applies it, and saves it as the startup-config.
"$mdsim" --db "$dir/a.db" lab create "$dir/two.lab" > "$dir/out" 2> "$dir/err" ||
    fail "lab create with a config block: $(cat "$dir/err")"
[ -s "$dir/err" ] && fail "lab create printed on stderr: $(cat "$dir/err")"
show running "$dir/a.db" MDS1 > "$dir/run1"
for want in 'switchname edge1' '  vsan 100' 'interface GigabitEthernet2/1' '  ip address 10.1.1.1 255.255.255.0' \
    '  no shutdown'; do
    grep -qx -- "$want" "$dir/run1" || fail "after create, MDS1 lacks '$want': $(cat "$dir/run1")"
done
show startup "$dir/a.db" MDS1 > "$dir/start1"
grep -v '^!Command' "$dir/run1" > "$dir/run1.body"
grep -v '^!Command' "$dir/start1" | sed '/^$/,$!d' | sed 1d > "$dir/start1.body"
sed '/^$/,$!d' "$dir/run1.body" | sed 1d > "$dir/run1.cmp"
cmp -s "$dir/run1.cmp" "$dir/start1.body" ||
    fail "MDS1's startup-config is not its running one: $(diff "$dir/run1.cmp" "$dir/start1.body")"
show running "$dir/a.db" MDS2 > "$dir/factory2"
grep -q 'vsan 100' "$dir/factory2" && fail "MDS2 got MDS1's configuration"
show startup "$dir/a.db" MDS2 | grep -q '^version' && fail "MDS2 (no config block) has a startup-config"

# 2. lab show prints the block back, and its output re-creates the same lab.
"$mdsim" --db "$dir/a.db" lab show > "$dir/show" 2>&1
sed -n '/^config MDS1$/,/^end-config$/p' "$dir/show" > "$dir/block"
cat > "$dir/want" <<'LAB'
config MDS1
! a comment line, skipped as the switch skips it
switchname edge1
vsan database
  vsan 100

interface gigabitethernet2/1
  ip address 10.1.1.1 255.255.255.0
  no shut
end-config
LAB
cmp -s "$dir/want" "$dir/block" || fail "lab show's block: $(diff "$dir/want" "$dir/block")"
"$mdsim" --db "$dir/b.db" lab create "$dir/show" > /dev/null 2> "$dir/err" ||
    fail "lab show's output is not a lab file: $(cat "$dir/err")"
"$mdsim" --db "$dir/b.db" lab show > "$dir/show-b" 2>&1
cmp -s "$dir/show" "$dir/show-b" || fail "show -> create -> show differs: $(diff "$dir/show" "$dir/show-b")"
show running "$dir/b.db" MDS1 | grep -v '^!Command' > "$dir/run1-b"
cmp -s "$dir/run1.body" "$dir/run1-b" || fail "the re-created MDS1 differs: $(diff "$dir/run1.body" "$dir/run1-b")"

# 3. Bad blocks: file:line and the switch's error on stderr, exit 1, no lab.
head='switch MDS1 chassis DS-C9506
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9'
bad() { # NAME LINE PATTERN BODY
    printf '%s\n' "$4" > "$dir/$1.lab"
    "$mdsim" --db "$dir/$1.db" lab create "$dir/$1.lab" > "$dir/out" 2> "$dir/err"
    rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc, want 1"
    grep -q "^$dir/$1.lab:$2: " "$dir/err" || fail "$1: stderr lacks '$1.lab:$2:': $(cat "$dir/err")"
    grep -q -- "$3" "$dir/err" || fail "$1: stderr lacks '$3': $(cat "$dir/err")"
    for f in "$dir/$1.db"* "$dir/$1.db".creating-*; do
        [ -e "$f" ] && fail "$1: left $f behind"
    done
    [ ! -s "$dir/out" ] || fail "$1: printed on stdout: $(cat "$dir/out")"
}
bad typo 8 "% Invalid command at '^' marker." "$head
config MDS1
  feature fcip
  interface fcip1
    no shutdown
  interfce fcip2
end-config"
# the caret under the word the switch refuses
grep -qx '    ^' "$dir/err" && grep -qx '    interfce fcip2' "$dir/err" ||
    fail "typo: no caret under the refused word: $(cat "$dir/err")"
bad range 6 "% Invalid number, range is (1:4093)" "$head
config MDS1
  vsan database
    vsan 4094
end-config"
bad feature_off 5 "% Invalid command" "$head
config MDS1
  interface fcip1
end-config"
bad exec_line 5 "% Invalid command" "$head
config MDS1
  sleep 5
end-config"
bad unknown_switch 4 "unknown switch 'MDS9'" "$head
config MDS9
end-config"
bad before_switch 1 "unknown switch 'MDS1'" "config MDS1
end-config
$head"
bad twice 6 "the configuration of MDS1 is already given at line 4" "$head
config MDS1
end-config
config mds1
end-config"
bad unclosed 4 "config MDS1 has no end-config line" "$head
config MDS1
  switchname x"
bad stray_end 4 "unexpected 'end-config'" "$head
end-config"
bad no_name 4 "incomplete line" "$head
config"
awk 'BEGIN { print "switch MDS1 chassis DS-C9506"; print " module 5 DS-X9530-SF2-K9"; print "config MDS1";
             for (i = 0; i < 5000; i++) printf "  switchname s%060d\n", i; print "end-config" }' > "$dir/big.txt"
bad too_big 3499 "the configuration of MDS1 (line 3) is over 256 KiB" "$(cat "$dir/big.txt")"

# A file with CRLF line ends: the block and its end-config read alike.
printf 'switch MDS1 chassis DS-C9506\r\n module 5 DS-X9530-SF2-K9\r\nconfig MDS1\r\n  switchname crlf\r\nend-config\r\n' \
    > "$dir/crlf.lab"
"$mdsim" --db "$dir/crlf.db" lab create "$dir/crlf.lab" > /dev/null 2> "$dir/err" || fail "CRLF lab: $(cat "$dir/err")"
"$mdsim" --db "$dir/crlf.db" lab list 2>&1 | grep -Eq '^MDS1 +crlf ' || fail "CRLF lab: the block was not applied"

# 4. lab reset --switch: that switch back to its starting configuration,
# the other keeps its changes; without --switch every switch.
cat > "$dir/change.txt" <<'CMD'
edge1# configure terminal
edge1(config)# switchname changed1
changed1(config)# no vsan database
changed1(config)# end
changed1# copy running-config startup-config
MDS2# configure terminal
MDS2(config)# switchname changed2
changed2(config)# vsan database
changed2(config-vsan-db)# vsan 200
changed2(config-vsan-db)# end
CMD
"$mdsim" --db "$dir/a.db" replay "$dir/change.txt" > "$dir/out" 2> "$dir/err" || true
"$mdsim" --db "$dir/a.db" lab list > "$dir/list"
grep -Eq '^MDS1 +changed1 ' "$dir/list" && grep -Eq '^MDS2 +changed2 ' "$dir/list" ||
    fail "the changes did not apply: $(cat "$dir/list" "$dir/err")"
"$mdsim" --db "$dir/a.db" --switch MDS1 lab reset > "$dir/out" 2> "$dir/err" ||
    fail "lab reset --switch MDS1: $(cat "$dir/err")"
printf 'lab reset: MDS1 reset to its starting configuration\n' | cmp -s - "$dir/out" ||
    fail "lab reset --switch MDS1 said: $(cat "$dir/out")"
[ -s "$dir/err" ] && fail "lab reset --switch MDS1 printed on stderr: $(cat "$dir/err")"
show running "$dir/a.db" MDS1 > "$dir/run1-reset"
cmp -s "$dir/run1" "$dir/run1-reset" || fail "MDS1 is not back to its start: $(diff "$dir/run1" "$dir/run1-reset")"
show startup "$dir/a.db" MDS1 > "$dir/start1-reset"
cmp -s "$dir/start1" "$dir/start1-reset" ||
    fail "MDS1's startup-config is not back to its start: $(diff "$dir/start1" "$dir/start1-reset")"
show running "$dir/a.db" MDS2 > "$dir/run2-kept"
grep -qx 'switchname changed2' "$dir/run2-kept" && grep -qx '  vsan 200' "$dir/run2-kept" ||
    fail "resetting MDS1 reset MDS2 too: $(cat "$dir/run2-kept")"
# by its current host name too, as --switch finds a switch
"$mdsim" --db "$dir/a.db" --switch changed2 lab reset > "$dir/out" 2> "$dir/err" ||
    fail "lab reset --switch changed2: $(cat "$dir/err")"
printf 'lab reset: MDS2 reset to factory configuration\n' | cmp -s - "$dir/out" ||
    fail "lab reset --switch changed2 said: $(cat "$dir/out")"
show running "$dir/a.db" MDS2 > "$dir/run2-reset"
cmp -s "$dir/factory2" "$dir/run2-reset" || fail "MDS2 is not factory: $(diff "$dir/factory2" "$dir/run2-reset")"
"$mdsim" --db "$dir/a.db" --switch MDS9 lab reset > /dev/null 2> "$dir/err"
[ $? -eq 2 ] || fail "lab reset --switch MDS9: want exit 2"
# both changed again, then all reset
"$mdsim" --db "$dir/a.db" replay "$dir/change.txt" > /dev/null 2>&1 || true
"$mdsim" --db "$dir/a.db" lab reset > "$dir/out" 2> "$dir/err" || fail "lab reset: $(cat "$dir/err")"
printf 'lab reset: MDS1 reset to its starting configuration\nlab reset: MDS2 reset to factory configuration\n' |
    cmp -s - "$dir/out" || fail "lab reset said: $(cat "$dir/out")"
show running "$dir/a.db" MDS1 > "$dir/run1-all"
cmp -s "$dir/run1" "$dir/run1-all" || fail "lab reset: MDS1 not back: $(diff "$dir/run1" "$dir/run1-all")"
show running "$dir/a.db" MDS2 > "$dir/run2-all"
cmp -s "$dir/factory2" "$dir/run2-all" || fail "lab reset: MDS2 not factory: $(diff "$dir/factory2" "$dir/run2-all")"
"$mdsim" --db "$dir/a.db" lab show > "$dir/show-after" 2>&1
cmp -s "$dir/show" "$dir/show-after" || fail "lab reset changed the lab file: $(diff "$dir/show" "$dir/show-after")"

[ $fails -eq 0 ] || exit 1
echo "PASS"
