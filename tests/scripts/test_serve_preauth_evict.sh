#!/bin/bash
# Idle connections that never log in cost their owner, not the users: an
# attacker holding every place among the connections waiting to log in
# (64 from 127.0.0.2 and 64 from 127.0.0.3, the 128 of the whole server)
# does not keep a user from 127.0.0.1 out, telnet nor SSH: the newcomer
# takes the place of the oldest waiting connection of the address that
# holds the most, which is closed (and logged).
# usage: test_serve_preauth_evict.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
flood="$(dirname "$mdsim")/conn_flood"
[ -x "$flood" ] || { echo "FAIL: need $flood"; exit 1; }
serve_start "$work/lab.db" || { fail "serve"; finish; }

# hold ADDR PORT OUT [N]: N (64) idle connections from ADDR; waits until
# the server has greeted or refused each one (conn_flood says so).
hold() {
    "$flood" -H -n "${4:-64}" -b "$1" 127.0.0.1 "$2" > "$3" 2>&1 &
    for _ in $(seq 600); do
        grep -q "^accepted" "$3" && break
        kill -0 $! 2> /dev/null || break
        sleep 0.1
    done
}
hold 127.0.0.2 "$TP" "$work/att2"
att2=$!
hold 127.0.0.3 "$SP" "$work/att3"
att3=$!
grep -q "^accepted 64 refused 0" "$work/att2" || fail "attacker 127.0.0.2: $(cat "$work/att2")"
grep -q "^accepted 64 refused 0" "$work/att3" || fail "attacker 127.0.0.3: $(cat "$work/att3")"

# Every place is taken now: the users still get in, once each, no retry.
printf 'show switchname\n' | timeout 60 "$client" 127.0.0.1 "$TP" > "$work/telnet" 2>&1
grep -q "^MDS1" "$work/telnet" || fail "telnet login while 128 idle connections wait: $(tr -d '\377' < "$work/telnet" | head -c 300)"
# the user's login gave its place back: take it, all are taken again
hold 127.0.0.4 "$TP" "$work/att4" 1
att4=$!
grep -q "^accepted 1 refused 0" "$work/att4" || fail "attacker 127.0.0.4: $(cat "$work/att4")"
printf 'show switchname\n' | timeout 60 "$client" -s 127.0.0.1 "$SP" > "$work/ssh" 2>&1
grep -q "^MDS1" "$work/ssh" || fail "ssh login while 128 idle connections wait: $(head -c 300 "$work/ssh")"
grep -q "closing a connection from 127.0.0.[23] waiting to log in" "$SERVE_ERR" ||
    fail "no waiting connection was closed for the users: $(tail -5 "$SERVE_ERR")"

# The attacker paid: the server closed some of its connections.
kill -TERM $att2 $att3 $att4
wait $att2 $att3 $att4
c2=$(sed -n 's/^closed //p' "$work/att2")
c3=$(sed -n 's/^closed //p' "$work/att3")
[ $((${c2:-0} + ${c3:-0})) -ge 2 ] || fail "the attacker kept all its connections: $c2 + $c3 closed"

serve_stop || fail "serve did not stop cleanly"
grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$SERVE_ERR" && fail "sanitizer report"
finish
