#!/bin/bash
# Another process holding the lab file's write lock: a configuration
# command fails with a clear error after the busy timeout (5 s) and changes
# nothing; the program neither aborts nor hangs. (It used to abort with
# "store write failed: database is locked".)
# Since a lab has one owner (docs/lab-owner.md), two mdsim processes never
# contend for the file (test_owner_replays.sh runs ten replays at once):
# only a foreign process can still hold it, as sqlite3 does here. Then the
# owner's command fails cleanly, and so does an attached mdsim's, whose
# command the owner runs: the same message, exit code and no change.
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

# the same through an owner: `serve` owns the lab, the transcript attaches
"$mdsim" --db "$dir/lab.db" serve --telnet-port 0 --ssh-port 0 > /dev/null 2> "$dir/serve.err" &
server=$!
trap '[ -n "$holder" ] && kill "$holder" 2> /dev/null; kill "$server" 2> /dev/null; wait 2> /dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do grep -q "serve: ready" "$dir/serve.err" && break; sleep 0.1; done
{ echo "BEGIN IMMEDIATE;"; sleep 8; echo "COMMIT;"; } | sqlite3 "$dir/lab.db" &
holder=$!
sleep 0.5
printf 'configure terminal\nswitchname busy-2\n' | timeout 30 "$mdsim" --db "$dir/lab.db" > "$dir/out2" 2> "$dir/err2"
rc=$?
[ "$rc" -eq 1 ] || fail "attached: exit code $rc, want 1"
grep -q "^% Lab database busy, nothing changed" "$dir/out2" || fail "attached: no busy error: $(cat "$dir/out2" "$dir/err2")"
grep -q "owner.*went away" "$dir/err2" && fail "attached: the owner died: $(cat "$dir/err2")"
wait "$holder"
holder=""
printf 'show switchname\n' | "$mdsim" --db "$dir/lab.db" > "$dir/after2"
grep -qx "MDS1" "$dir/after2" || fail "attached: the refused command changed the switch name: $(cat "$dir/after2")"
printf 'configure terminal\nswitchname free-again\n' | "$mdsim" --db "$dir/lab.db" > "$dir/out3" 2>&1 ||
    fail "attached, the file free again: $(cat "$dir/out3")"
kill "$server"
wait "$server"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "ok"
