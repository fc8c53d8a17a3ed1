#!/bin/bash
# SSH exec and `ssh -T` as CI uses them, stdin at its end: a command that
# lasts runs to its end (the end of the input is no interrupt), only the
# connection closing stops it; a clock another session's stopped ping left
# ahead of the wall holds up nobody's output; `ssh -T < script` exits 1
# when a line failed, as replay does.
# usage: test_ssh_exec.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
command -v sshpass > /dev/null && command -v ssh > /dev/null || { echo "skip: no sshpass/ssh"; exit 77; }

# MDS1 g2/4 is cabled to MDS2 g2/2 in the default lab.
cat > "$work/setup.txt" <<'LAB'
MDS1# configure terminal
MDS1(config)# interface gigabitethernet 2/4
MDS1(config-if)# ip address 10.1.1.1 255.255.255.0
MDS1(config-if)# no shutdown
MDS2# configure terminal
MDS2(config)# interface gigabitethernet 2/2
MDS2(config-if)# ip address 10.1.1.2 255.255.255.0
MDS2(config-if)# no shutdown
LAB
"$mdsim" --db "$work/lab.db" replay "$work/setup.txt" > /dev/null || fail "setup"
serve_start "$work/lab.db" || { fail "serve"; finish; }
ms() { echo $(($(date +%s%N) / 1000000)); }

# ping with `ssh -n`: every reply, the statistics, exit 0.
ssh_as admin admin "$SP" -n 'ping 10.1.1.2 count 3' > "$work/ping" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "ssh -n ping: exit $rc"
[ "$(grep -c 'bytes from 10.1.1.2' "$work/ping")" -eq 3 ] || fail "ssh -n ping: $(cat "$work/ping")"
grep -q '^3 packets transmitted, 3 packets received' "$work/ping" || fail "ssh -n ping: no statistics"

# sleep with stdin from /dev/null lasts its time.
t0=$(ms)
ssh_as admin admin "$SP" 'sleep 2' < /dev/null || fail "sleep: exit $?"
[ $(($(ms) - t0)) -ge 2000 ] || fail "sleep 2 </dev/null ended after $(($(ms) - t0)) ms"

# A Ctrl-C byte on stdin is an interrupt, EOF after it or not.
t0=$(ms)
{ sleep 1; printf '\003'; sleep 1; } | ssh_as admin admin "$SP" 'sleep 30' || fail "sleep stopped by Ctrl-C: exit $?"
[ $(($(ms) - t0)) -lt 15000 ] || fail "a Ctrl-C byte did not stop an exec's sleep"

# A ping whose client goes away while it waits for a 20 s timeout: the
# ping stops (the connection closed), the lab clock stays ahead of the
# wall, and the next exec still answers at once.
timeout 30 sshpass -p admin ssh $SSHO -p "$SP" admin@127.0.0.1 -n 'ping 10.1.1.99 count 1 timeout 20' \
    > "$work/lost" 2>&1 &
pid=$! # timeout's: it passes the TERM on
for _ in $(seq 100); do grep -q '^PING' "$work/lost" && break; sleep 0.1; done
grep -q '^PING' "$work/lost" || fail "unanswered ping did not start: $(cat "$work/lost")"
kill -TERM "$pid"
wait "$pid" 2> /dev/null
t0=$(ms)
out=$(ssh_as admin admin "$SP" -n 'show switchname' 2>&1)
took=$(($(ms) - t0))
[ "$out" = "MDS1" ] || fail "exec after a stopped ping printed '$out'"
[ "$took" -lt 5000 ] || fail "exec after a stopped ping took $took ms"
t0=$(ms)
ssh_as admin admin "$SP" -n 'sleep 1' || fail "sleep after a stopped ping: exit $?"
took=$(($(ms) - t0))
[ "$took" -lt 6000 ] || fail "sleep 1 after a stopped ping took $took ms"
closed=0
for _ in $(seq 50); do
    [ "$(grep -c 'ssh connection from .* closed' "$SERVE_ERR")" -ge 6 ] && closed=1 && break
    sleep 0.1
done
[ "$closed" -eq 1 ] || fail "the ping of a closed connection went on: $(cat "$SERVE_ERR")"

# ssh -T < script: the transcript, exit 0, or 1 when a line failed (the
# lines after it still run).
printf 'show switchname\nping 10.1.1.2 count 2\n' > "$work/good"
ssh_as admin admin "$SP" -T < "$work/good" > "$work/good.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "ssh -T good script: exit $rc: $(cat "$work/good.out")"
[ "$(grep -c 'bytes from 10.1.1.2' "$work/good.out")" -eq 2 ] || fail "ssh -T ping: $(cat "$work/good.out")"
printf 'show switchname\nshow bogus\nshow clock\n' > "$work/bad"
ssh_as admin admin "$SP" -T < "$work/bad" > "$work/bad.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "ssh -T with a failing line: exit $rc, not 1"
grep -q "^% Invalid command at '^' marker." "$work/bad.out" || fail "ssh -T: no error shown"
grep -q '^MDS1# show clock' "$work/bad.out" || fail "ssh -T stopped at the failing line"

grep -q -e Sanitizer -e 'runtime error' "$SERVE_ERR" && fail "serve: $(grep -A5 -e Sanitizer -e 'runtime error' "$SERVE_ERR")"
finish
