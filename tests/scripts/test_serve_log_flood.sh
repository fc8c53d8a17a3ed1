#!/bin/bash
# An attack cannot fill the disk through serve's log: a flood of
# connections (127.0.0.6) and of failed logins (127.0.0.7) gets the first
# few lines per address and minute, then one summary line per address and
# minute ("... in the last minute from ADDR"), so stderr stays bounded.
# Takes a little over a minute: the summary comes when the minute ends.
# usage: test_serve_log_flood.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
flood="$(dirname "$mdsim")/conn_flood"
[ -x "$flood" ] || { echo "FAIL: need $flood"; exit 1; }
serve_start "$work/lab.db" || { fail "serve"; finish; }

# 600 connections that hang up at once, 16 at a time.
"$flood" -b 127.0.0.6 -n 600 -P 16 -w 0 127.0.0.1 "$TP" > "$work/conns" 2>&1 &
conns=$!
# 300 connections with three wrong passwords each for admin, 16 at a time:
# once admin is slowed for this address, the tries are refused unchecked.
"$flood" -b 127.0.0.7 -n 300 -P 16 -w 40 -s 'admin\r\nx\r\nadmin\r\nx\r\nadmin\r\nx\r\n' \
    127.0.0.1 "$TP" > "$work/logins" 2>&1 &
logins=$!
wait $conns $logins
grep -q "^done 600" "$work/conns" || fail "connection flood: $(cat "$work/conns")"
grep -q "^done 300" "$work/logins" || fail "login flood: $(cat "$work/logins")"

# A user still gets in, and is logged.
printf 'show switchname\n' | timeout 60 "$client" -b 127.0.0.8 127.0.0.1 "$TP" > "$work/user" 2>&1
grep -q "^MDS1" "$work/user" || fail "a user after the floods: $(tr -d '\377' < "$work/user" | head -c 300)"
grep -q "telnet connection to MDS1 from 127.0.0.8" "$SERVE_ERR" || fail "the user's connection is not logged"

# The summaries, once the minute is over (waited for, at most 3 minutes).
for _ in $(seq 1800); do
    grep -q "in the last minute from 127.0.0.6" "$SERVE_ERR" &&
        grep -q "in the last minute from 127.0.0.7" "$SERVE_ERR" && break
    kill -0 "$SERVE_PID" 2> /dev/null || break
    sleep 0.1
done
grep -q "connections.* in the last minute from 127.0.0.6" "$SERVE_ERR" ||
    fail "no summary of the connection flood: $(grep 127.0.0.6 "$SERVE_ERR" | tail -3)"
grep -q "refused logins.* in the last minute from 127.0.0.7" "$SERVE_ERR" ||
    fail "no summary of the refused logins: $(grep 127.0.0.7 "$SERVE_ERR" | tail -3)"

# Bounded: 600 connections made 1,200 lines and 900 refused tries as many,
# one each; now at most 140 lines an address and minute (its allowance,
# 150 here), then the minute's summary: however long the floods took
# under load, an address has no more lines than its summaries allow.
bounded() {
    local n w
    n=$(grep -c "from ${1//./\\.}\([^0-9]\|$\)" "$SERVE_ERR")
    w=$(grep -c "in the last minute from ${1//./\\.}$" "$SERVE_ERR")
    [ "$n" -le $(((w + 1) * 150)) ] || fail "$n lines about $2 from $1 (in $w summarised minutes)"
}
bounded 127.0.0.6 "600 connections"
bounded 127.0.0.7 "300 connections failing logins"

serve_stop || fail "serve did not stop cleanly"
grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$SERVE_ERR" && fail "sanitizer report"
finish
