#!/bin/bash
# Acknowledged means durable (DESIGN rule 10, docs/durability.md), beside
# an attached replay on a served lab with an FCIP tunnel up:
# - a telnet admin's commands during the replay's `sleep` (a rename,
#   `copy running-config startup-config`, which says `Copy complete.`)
#   survive a SIGKILL of the owner; so do the replay's lines before its
#   sleep. (Before, the replay's one transaction stayed open through its
#   sleep, every served command joined it, and the kill lost them all.)
# - the attached replay's transcript reaches its client as its lines run,
#   not when it ends: the lines before the sleep are on the client's
#   stdout while it sleeps.
# - serve's SIGTERM ends an attached replay's real-time `sleep` (it used
#   to sleep on and hold the server's exit); its lines before are kept.
# - an attached `replay --check` with a long `sleep` holds nobody up: it
#   runs on a private copy of the lab on virtual time (its sleep takes no
#   wall time); a served session's commands beside it keep their effect,
#   and the check's own changes never reach the lab. (Before, the check
#   held the lab alone for the 120 s of its sleep.)
# usage: test_durability.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
db="$work/lab.db"
here=$(dirname "$0")

# waits up to 60 s for a file to hold a line matching a pattern
wait_for() {
    local file=$1 pattern=$2
    for _ in $(seq 600); do
        grep -q -- "$pattern" "$file" 2> /dev/null && return 0
        sleep 0.1
    done
    return 1
}

telnet() { timeout 90 "$client" -e 127.0.0.1 "$TP"; }

serve_start "$db" || { fail "serve"; finish; }
# the reference lab's tunnel, across MDS1's simulator
{ sed -n '/^! 1\./,/^! 2\./p' "$here/../../examples/seed-lab.txt"
  echo 'MDS1# ips netsim enable interface g2/3 g2/4'; } > "$work/tunnel"
"$mdsim" --db "$db" replay "$work/tunnel" > "$work/tunnel.out" 2>&1 || fail "tunnel config: $(tail -3 "$work/tunnel.out")"
printf 'show fcip summary\n' > "$work/up"
for _ in $(seq 600); do
    "$mdsim" --db "$db" replay "$work/up" 2> /dev/null | grep -q 'TRNK' && break
    sleep 0.1
done
"$mdsim" --db "$db" replay "$work/up" | grep -q TRNK || fail "the tunnel did not come up: $("$mdsim" --db "$db" replay "$work/up")"

printf 'configure terminal\nswitchname FIRST\nend\n' | telnet > "$work/t1" || fail "telnet: $(cat "$work/t1")"

printf 'configure terminal\ninterface gigabitethernet 2/5\nswitchport description from-replay\nend\nsleep 60\nshow switchname\n' \
    > "$work/slow"
"$mdsim" --db "$db" replay "$work/slow" > "$work/slow.out" 2> "$work/slow.err" &
rpid=$!
wait_for "$work/slow.out" "sleep 60" || fail "the replay's transcript did not reach its client while it ran: $(cat "$work/slow.out" "$work/slow.err")"
grep -q "switchport description from-replay" "$work/slow.out" || fail "replay transcript: $(cat "$work/slow.out")"

printf 'configure terminal\nswitchname RENAMED\nend\ncopy running-config startup-config\n' | telnet > "$work/t2" ||
    fail "telnet during the replay's sleep: $(cat "$work/t2")"
grep -q "^Copy complete.$" "$work/t2" || fail "no Copy complete: $(cat "$work/t2")"

kill -KILL "$SERVE_PID"
wait "$SERVE_PID" 2> /dev/null
wait "$rpid"
[ $? -eq 1 ] || fail "the replay did not fail when its owner died"

printf 'show switchname\nshow running-config interface gigabitethernet 2/5\nshow startup-config\n' |
    timeout 30 "$mdsim" --db "$db" > "$work/after" 2>&1 || fail "after the kill: $(cat "$work/after")"
grep -qx RENAMED "$work/after" || fail "the served rename was lost: $(head -5 "$work/after")"
grep -q "description from-replay" "$work/after" || fail "the replay's committed line was lost: $(cat "$work/after")"
grep -q "^switchname RENAMED" "$work/after" || fail "copy run start was lost: $(cat "$work/after")"

# replay --check sleeping does not hold the served sessions
serve_start "$db" || { fail "serve again"; finish; }
printf 'configure terminal\nswitchname CHECKED\nend\nsleep 120\n' > "$work/check"
"$mdsim" --db "$db" replay --check "$work/check" > "$work/check.out" 2> "$work/check.err" &
cpid=$!
wait_for "$work/check.out" "sleep 120" || fail "the check did not reach its sleep: $(cat "$work/check.out" "$work/check.err")"
printf 'show switchname\nconfigure terminal\nswitchname DURING\nend\n' | telnet > "$work/t3" ||
    fail "a served session was held up by replay --check: $(cat "$work/t3")"
grep -qx RENAMED "$work/t3" || fail "the check's change leaked to the lab: $(cat "$work/t3")"
wait "$cpid"
[ $? -eq 0 ] || fail "replay --check: $(cat "$work/check.err")"
grep -q "^CHECKED(config)# end" "$work/check.out" || fail "check transcript: $(cat "$work/check.out")"
printf 'show switchname\n' | telnet > "$work/t4"
grep -qx DURING "$work/t4" || fail "the served change beside the check was lost: $(cat "$work/t4")"
# serve stopping ends an attached replay's real-time sleep, committed
printf 'configure terminal\nswitchname SLEEPER\nend\nsleep 600\n' > "$work/long"
"$mdsim" --db "$db" replay "$work/long" > "$work/long.out" 2> "$work/long.err" &
lpid=$!
wait_for "$work/long.out" "sleep 600" || fail "the long replay did not reach its sleep: $(cat "$work/long.err")"
serve_stop || fail "serve did not stop beside a sleeping replay"
wait "$lpid"
printf 'show switchname\n' | timeout 30 "$mdsim" --db "$db" > "$work/t5" 2>&1
grep -qx SLEEPER "$work/t5" || fail "the stopped replay's lines: $(cat "$work/t5")"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
