#!/bin/bash
# Logging in is bounded: a telnet connection that never logs in is closed
# after LOGIN_SECONDS (30); one peer address holds at most 64 connections
# waiting to log in (more are refused with a line, other peers still get
# in); failed logins are slowed per address and per user name from an
# address, across connections, so parallel connections guess no faster
# than one (docs/login-throttle.md).
# usage: test_serve_login_limits.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
serve_start "$work/lab.db" || { fail "serve"; finish; }

# raw PORT FILE: the bytes of FILE to the port, what comes back (5 s at most).
raw() {
    timeout 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1; cat '$2' >&3; timeout 5 cat <&3" 2> /dev/null
}
# logs_in [client options]: a login and one command, retried for 10 s.
logs_in() {
    for _ in $(seq 20); do
        printf 'show switchname\n' | timeout 30 "$client" "$@" > "$work/in" 2>&1 && grep -q "^MDS1" "$work/in" && return 0
        sleep 0.5
    done
    return 1
}

# A connection that never logs in, timed until the server closes it.
start=$(date +%s)
(
    exec 3<> "/dev/tcp/127.0.0.1/$TP"
    timeout 60 cat <&3 > "$work/silent"
    echo $(($(date +%s) - start)) > "$work/silent.took"
) 2> /dev/null &
silent=$!

# 63 more from 127.0.0.1: 64 waiting to log in, the most one peer may hold.
sleep 0.5
idle=""
for _ in $(seq 63); do exec {fd}<> "/dev/tcp/127.0.0.1/$TP"; idle="$idle $fd"; done
: > "$work/empty"
raw "$TP" "$work/empty" > "$work/65th"
grep -a -q "Too many connections waiting to log in" "$work/65th" ||
    fail "the 65th waiting connection of a peer was not refused: $(tr -d '\377' < "$work/65th" | head -c 200)"
grep -q "refusing a connection from 127.0.0.1: too many waiting" "$SERVE_ERR" || fail "the refusal is not logged"
ssh_as admin admin "$SP" 'show switchname' > /dev/null 2>&1 && fail "ssh from the saturated peer got in"
# another peer is not held up by it, telnet nor SSH
logs_in -b 127.0.0.2 127.0.0.1 "$TP" || fail "telnet from 127.0.0.2 while 127.0.0.1 is saturated: $(cat "$work/in")"
logs_in -s -b 127.0.0.2 127.0.0.1 "$SP" || fail "ssh from 127.0.0.2 while 127.0.0.1 is saturated: $(cat "$work/in")"
# their places come back when they leave
for fd in $idle; do exec {fd}>&-; done
logs_in 127.0.0.1 "$TP" || fail "127.0.0.1 refused after its waiting connections left: $(cat "$work/in")"

# Parallel guesses of one user name (from 127.0.0.4): one failure, then 8
# connections at once. Counted per name across connections, they are spaced
# (1 s, 2 s, 4 s...): a handful in 6 s, where a per-connection delay let
# all 8 through at once.
printf 'show switchname\n' | timeout 30 "$client" -b 127.0.0.4 -u bob -p guess0 127.0.0.1 "$TP" > /dev/null 2>&1
pids=""
for i in $(seq 8); do
    printf 'show switchname\n' | timeout 20 "$client" -b 127.0.0.4 -u bob -p "guess$i" 127.0.0.1 "$TP" > /dev/null 2>&1 &
    pids="$pids $!"
done
sleep 6
n=$(grep -c "failed telnet login as 'bob'" "$SERVE_ERR")
[ "$n" -le 5 ] || fail "$n guesses of bob's password in 6 s from 8 parallel connections"
[ "$n" -ge 2 ] || fail "only $n guesses of bob's password were checked"
kill $pids 2> /dev/null
wait $pids 2> /dev/null

# Password spraying from one address (127.0.0.1): 8 connections, 3 names
# each. 5 failures are free, then the address is slowed for every name.
pids=""
for i in $(seq 8); do
    printf 'sp%da\r\nx\r\nsp%db\r\nx\r\nsp%dc\r\nx\r\n' $i $i $i $i $i $i > "$work/spray$i"
    timeout 20 bash -c "exec 3<>/dev/tcp/127.0.0.1/$TP; cat '$work/spray$i' >&3; timeout 8 cat <&3" \
        > "$work/spray$i.out" 2> /dev/null &
    pids="$pids $!"
done
sleep 6
n=$(grep -c "failed telnet login as 'sp" "$SERVE_ERR")
[ "$n" -le 12 ] || fail "$n names sprayed in 6 s from one address (24 tried)"
grep -q "telnet login as 'sp.*refused: too many failures" "$SERVE_ERR" ||
    fail "no spraying attempt was refused unchecked"
# a throttled attempt says so
wait $pids
cat "$work"/spray*.out | grep -a -q "Too many failed logins, try again later" ||
    fail "a refused attempt does not say why: $(tr -d '\377' < "$work/spray1.out")"

# Neither slowed the others: admin from a fresh address gets in at its
# first try, its password checked without a wait (a condition, not a time:
# the machine may be loaded).
printf 'show switchname\n' | timeout 30 "$client" -b 127.0.0.5 127.0.0.1 "$TP" > "$work/in" 2>&1 &&
    grep -q "^MDS1" "$work/in" || fail "admin from 127.0.0.5 after the attacks: $(cat "$work/in")"
grep -q "login.*127.0.0.5.*\(refused\|wait\)" "$SERVE_ERR" && fail "admin from 127.0.0.5 was throttled: $(grep 127.0.0.5 "$SERVE_ERR")"

# The silent connection: closed after 30 s with a message, not 30 min.
wait "$silent"
took=$(cat "$work/silent.took" 2> /dev/null || echo none)
grep -a -q "Login timed out" "$work/silent" || fail "no login timeout message: $(tr -d '\377' < "$work/silent")"
[ "$took" != none ] && [ "$took" -ge 28 ] && [ "$took" -le 45 ] || fail "a silent telnet peer was held ${took} s"

serve_stop || fail "serve did not stop cleanly"
grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$SERVE_ERR" && fail "sanitizer report"
finish
