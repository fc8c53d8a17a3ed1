#!/bin/sh
# The lab file and the replay command line: files that are not mdsim labs
# are refused and left byte-identical; --check changes nothing;
# --stop-on-error stops; failures name file:line; --verify checks prompts;
# stdin piped to plain mdsim prints a transcript.
# usage: test_labfile.sh MDSIM
mdsim=$1
# sqlite3 builds the foreign and the too-new SQLite files.
command -v sqlite3 > /dev/null || { echo "SKIP: no sqlite3 (scripts/install-deps.sh installs it)"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

sql() { sqlite3 "$1" "$2"; }

# refused FILE WHAT PATTERN: mdsim must exit 1 with PATTERN on stderr,
# nothing on stdout, and leave FILE (and no journal beside it) untouched.
refused() {
    cp "$1" "$1.orig"
    echo "show switchname" | "$mdsim" --db "$1" > "$dir/out" 2> "$dir/err"
    rc=$?
    [ $rc -eq 1 ] || fail "$2: exit code $rc, want 1"
    grep -q "$3" "$dir/err" || fail "$2: stderr lacks '$3': $(cat "$dir/err")"
    grep -q "^mdsim: " "$dir/err" || fail "$2: stderr message not prefixed 'mdsim: '"
    [ ! -s "$dir/out" ] || fail "$2: printed on stdout: $(head -3 "$dir/out")"
    cmp -s "$1" "$1.orig" || fail "$2: the file was modified"
    for j in -wal -shm -journal; do
        [ ! -e "$1$j" ] || fail "$2: left $1$j behind"
    done
    # a replay is refused the same way
    printf 'show switchname\n' > "$dir/one.txt"
    "$mdsim" --db "$1" replay "$dir/one.txt" > /dev/null 2>&1
    rc=$?
    [ $rc -eq 1 ] || fail "$2: replay exit code $rc, want 1"
    cmp -s "$1" "$1.orig" || fail "$2: the file was modified by replay"
}

# 1. A file that is not SQLite at all.
i=0
while [ $i -lt 200 ]; do echo "this is not a database, line $i"; i=$((i + 1)); done > "$dir/text.db"
refused "$dir/text.db" "text file" "not an mdsim lab"

# 2. An SQLite database of another application.
if sql "$dir/other.db" "CREATE TABLE songs(title TEXT); INSERT INTO songs VALUES ('x');"; then
    refused "$dir/other.db" "foreign SQLite file" "not an mdsim lab"
else
    fail "sqlite3 could not build a foreign SQLite file"
fi

# 3. A lab written by a newer mdsim (larger user_version).
printf 'show switchname\n' | "$mdsim" --db "$dir/newer.db" > /dev/null 2>&1 ||
    fail "cannot create a lab"
if sql "$dir/newer.db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE; PRAGMA user_version = 9999;" > /dev/null; then
    rm -f "$dir/newer.db-wal" "$dir/newer.db-shm"
    refused "$dir/newer.db" "newer schema" "newer"
else
    fail "sqlite3 could not raise user_version"
fi

# A fresh lab for the replay options.
lab="$dir/lab.db"
show_run() {
    printf 'show running-config | exclude ^!Time\nshow startup-config | exclude Time\n' |
        "$mdsim" --db "$lab" > "$1" 2>&1
}
cat > "$dir/setup.txt" <<'CFG'
configure terminal
interface gigabitethernet 2/2
ip address 10.1.1.1 255.255.255.0
no shutdown
end
copy running-config startup-config
CFG
"$mdsim" --db "$lab" replay "$dir/setup.txt" > /dev/null 2>&1 || fail "setup replay failed"
show_run "$dir/before"
grep -q "ip address 10.1.1.1 255.255.255.0" "$dir/before" || fail "setup not applied"

# 4. replay --check validates and leaves the lab unchanged.
cat > "$dir/change.txt" <<'CFG'
configure terminal
switchname other
interface gigabitethernet 2/2
switchport mtu 3000
shutdown
end
copy running-config startup-config
CFG
"$mdsim" --db "$lab" replay --check "$dir/change.txt" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc -eq 0 ] || fail "replay --check of a valid script: exit $rc ($(cat "$dir/err"))"
grep -q "other(config-if)# switchport mtu 3000" "$dir/out" || fail "replay --check printed no transcript"
show_run "$dir/after"
diff "$dir/before" "$dir/after" > /dev/null || fail "replay --check changed the lab: $(diff "$dir/before" "$dir/after")"
# ... and still reports a bad line
printf 'configure terminal\nswitchport mtu 3000\n' > "$dir/bad.txt"
"$mdsim" --db "$lab" replay --check "$dir/bad.txt" > /dev/null 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || fail "replay --check of a bad script: exit $rc, want 1"
grep -q "bad.txt:2: " "$dir/err" || fail "replay --check: no file:line for the bad line: $(cat "$dir/err")"

# 5. A failing line: file:line: on stderr, exit 1, the other lines still run.
cat > "$dir/fail.txt" <<'CFG'
configure terminal
switchname first
bogus command here
switchname second
CFG
"$mdsim" --db "$dir/fail.db" replay "$dir/fail.txt" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || fail "failing line: exit $rc, want 1"
grep -q "fail.txt:3: % Invalid command at '^' marker." "$dir/err" ||
    fail "failing line: stderr lacks 'fail.txt:3: % Invalid command ...': $(cat "$dir/err")"
[ "$(grep -c . "$dir/err")" -eq 1 ] || fail "failing line: more than one error reported: $(cat "$dir/err")"
grep -q "switchname second" "$dir/out" || fail "without --stop-on-error the lines after a failure must run"

# 6. --stop-on-error stops at the failing line.
"$mdsim" --db "$dir/stop.db" replay --stop-on-error "$dir/fail.txt" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || fail "--stop-on-error: exit $rc, want 1"
grep -q "fail.txt:3: " "$dir/err" || fail "--stop-on-error: no file:line: $(cat "$dir/err")"
grep -q "switchname second" "$dir/out" && fail "--stop-on-error ran the line after the failure"
printf 'show switchname\n' | "$mdsim" --db "$dir/stop.db" > "$dir/out" 2>&1
grep -qx "first" "$dir/out" || fail "--stop-on-error: the lines before the failure were lost: $(cat "$dir/out")"
# ... and stops across files too
printf 'configure terminal\nswitchname third\n' > "$dir/next.txt"
"$mdsim" --db "$dir/stop2.db" replay --stop-on-error "$dir/fail.txt" "$dir/next.txt" > "$dir/out" 2>/dev/null
grep -q "switchname third" "$dir/out" && fail "--stop-on-error ran the next file"

# 7. A missing script file is a usage-level failure, not a crash.
"$mdsim" --db "$dir/lab.db" replay "$dir/no-such-file.txt" > /dev/null 2> "$dir/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "missing script: exit $rc"
grep -q "no-such-file.txt" "$dir/err" || fail "missing script: stderr does not name it"

# 8. --verify compares the prompt, not only the output: a transcript that
#    shows the wrong mode fails.
cat > "$dir/prompt.txt" <<'CFG'
MDS1# configure terminal
Enter configuration commands, one per line.  End with CNTL/Z.
MDS1(config-if)# exit
MDS1# show switchname
MDS1
CFG
"$mdsim" --db "$dir/verify.db" replay --verify "$dir/prompt.txt" > /dev/null 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || fail "--verify accepted a wrong prompt (exit $rc)"
grep -q 'prompt.txt:3: prompt differs: expected "MDS1(config-if)#", got "MDS1(config)#"' "$dir/err" ||
    fail "--verify: wrong-prompt message: $(cat "$dir/err")"
sed 's/^MDS1(config-if)# exit/MDS1(config)# exit/' "$dir/prompt.txt" > "$dir/prompt-ok.txt"
"$mdsim" --db "$dir/verify2.db" replay --verify "$dir/prompt-ok.txt" > /dev/null 2> "$dir/err" ||
    fail "--verify rejected a correct transcript: $(cat "$dir/err")"
# ... and wrong output
sed 's/^MDS1$/MDS9/' "$dir/prompt-ok.txt" > "$dir/output-bad.txt"
"$mdsim" --db "$dir/verify3.db" replay --verify "$dir/output-bad.txt" > /dev/null 2> "$dir/err" &&
    fail "--verify accepted wrong output"
grep -q 'output-bad.txt:5: output differs' "$dir/err" || fail "--verify: wrong-output message: $(cat "$dir/err")"

# 9. stdin piped to plain mdsim: a transcript with prompts and output.
printf 'show switchname\nconfigure terminal\nswitchname piped\nend\nshow switchname\n' |
    "$mdsim" --db "$dir/stdin.db" > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc -eq 0 ] || fail "stdin: exit $rc ($(cat "$dir/err"))"
cat > "$dir/want" <<'CFG'
MDS1# show switchname
MDS1
MDS1# configure terminal
Enter configuration commands, one per line.  End with CNTL/Z.
MDS1(config)# switchname piped
piped(config)# end
piped# show switchname
piped
CFG
diff "$dir/want" "$dir/out" > "$dir/diff" || fail "stdin transcript differs: $(cat "$dir/diff")"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all lab-file checks passed"
