#!/bin/bash
# One lab, one owner, when the owner fails (docs/lab-owner.md):
# - the owner killed with SIGKILL: an attached replay (waiting out a
#   real-time `sleep`) reports that its owner went away and exits 1; the
#   next mdsim becomes the owner at once (the kernel dropped the flock) and
#   finds the lab as the last committed command left it: the replay's
#   lines before its sleep included, whose transcript its client had;
# - an owner alive but not answering (SIGSTOP): a new mdsim gives up after
#   a few seconds with a message naming the owner's pid, and works again
#   once the owner does.
# (Before, there was no owner: the replay slept on virtual time and
# succeeded, and nothing named a stuck process.)
# usage: test_owner_kill.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
# a background owner's stderr is /dev/null: sanitizer reports go to files
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
db="$work/lab.db"
serve_start "$db" || { fail "serve"; finish; }
printf 'configure terminal\nswitchname KEPT\nend\n' | "$mdsim" --db "$db" > /dev/null || fail "configure through serve"

printf 'configure terminal\nswitchname IN-REPLAY\nend\nsleep 30\nshow switchname\n' > "$work/slow"
"$mdsim" --db "$db" replay "$work/slow" > "$work/slow.out" 2> "$work/slow.err" &
rpid=$!
# into its sleep: the owner shows its switchname
for _ in $(seq 300); do
    timeout 20 "$mdsim" --db "$db" lab list 2> /dev/null | grep -q IN-REPLAY && break
    sleep 0.1
done
timeout 20 "$mdsim" --db "$db" lab list | grep -q IN-REPLAY || fail "the replay did not start: $(cat "$work/slow.err")"
kill -KILL "$SERVE_PID"
wait "$SERVE_PID" 2> /dev/null
start=$SECONDS
wait "$rpid"
rc=$?
[ $((SECONDS - start)) -le 5 ] || fail "the replay took $((SECONDS - start)) s to notice its owner died"
[ "$rc" -eq 1 ] || fail "replay exit $rc after its owner died, want 1"
grep -q "the lab's owner (mdsim process $SERVE_PID) went away" "$work/slow.err" ||
    fail "no message about the dead owner: $(cat "$work/slow.err")"

# the next mdsim owns the lab
printf 'show switchname\n' | timeout 20 "$mdsim" --db "$db" > "$work/next" 2>&1 || fail "next mdsim: $(cat "$work/next")"
# the replay's lines before its sleep were committed and shown
grep -qx IN-REPLAY "$work/next" || fail "the lab lost the replay's committed switchname: $(cat "$work/next")"
grep -q "switchname IN-REPLAY" "$work/slow.out" || fail "the replay's transcript before the kill: $(cat "$work/slow.out")"
timeout 20 "$mdsim" --db "$db" lab list > "$work/list" 2>&1 || fail "lab list after the kill: $(cat "$work/list")"

# a stuck owner is named
serve_start "$db" || fail "serve again"
kill -STOP "$SERVE_PID"
start=$SECONDS
timeout 60 "$mdsim" --db "$db" lab list > "$work/stuck.out" 2> "$work/stuck.err"
rc=$?
took=$((SECONDS - start))
kill -CONT "$SERVE_PID"
[ "$rc" -eq 1 ] || fail "lab list against a stuck owner: exit $rc, want 1"
[ "$took" -le 20 ] || fail "giving up on a stuck owner took $took s"
grep -q "owned by mdsim process $SERVE_PID, which does not answer" "$work/stuck.err" ||
    fail "the stuck owner is not named: $(cat "$work/stuck.err")"
timeout 20 "$mdsim" --db "$db" lab list > "$work/list2" 2>&1 || fail "lab list once the owner runs again: $(cat "$work/list2")"
serve_stop || fail "serve did not stop cleanly"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
