#!/bin/bash
# Another process holding the lab file's write lock: a configuration
# command fails with a clear error after the busy timeout (5 s) and changes
# nothing; the program neither aborts nor hangs. (It used to abort with
# "store write failed: database is locked".)
mdsim=$1
command -v sqlite3 > /dev/null || { echo "SKIP: no sqlite3 (scripts/install-deps.sh installs it)"; exit 77; }
dir=$(mktemp -d)
holder=""
trap '[ -n "$holder" ] && kill "$holder" 2> /dev/null; wait 2> /dev/null; rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$mdsim" --db "$dir/lab.db" lab list > /dev/null || { echo "FAIL: lab list"; exit 1; }
# hold the write lock for 8 s
{ echo "BEGIN IMMEDIATE;"; sleep 8; echo "COMMIT;"; } | sqlite3 "$dir/lab.db" &
holder=$!
sleep 0.5
printf 'configure terminal\nswitchname busy-1\n' | timeout 30 "$mdsim" --db "$dir/lab.db" > "$dir/out" 2> "$dir/err"
rc=$?
[ "$rc" -eq 1 ] || fail "exit code $rc, want 1"
grep -q "^% Lab database busy, nothing changed" "$dir/out" || fail "no busy error: $(cat "$dir/out" "$dir/err")"
grep -q "store write failed" "$dir/err" && fail "aborted: $(cat "$dir/err")"
wait "$holder"
holder=""
printf 'show switchname\n' | "$mdsim" --db "$dir/lab.db" > "$dir/after"
grep -qx "MDS1" "$dir/after" || fail "the refused command changed the switch name: $(cat "$dir/after")"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "ok"
