#!/bin/bash
# Careless input on a served lab:
# - on virtual time (serve --speed 0) a network-operator's `sleep` is
#   refused: it would move the clock every session shares (a `sleep
#   2147483647` once put every switch in 2094); the admin's works, up to
#   10 years of lab time;
# - Ctrl-C on `ping` prints its statistics at `terminal length 0` (the
#   setting trainers use; mdsim_client sets it unless -x) as with a pager.
# usage: test_careless_clock_ping.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"

cat > "$work/setup.txt" <<'LAB'
MDS1# configure terminal
MDS1(config)# username oper password 0 Op3rat0r! role network-operator
MDS1(config)# interface gigabitethernet 2/4
MDS1(config-if)# ip address 10.1.1.1 255.255.255.0
MDS1(config-if)# no shutdown
MDS2# configure terminal
MDS2(config)# interface gigabitethernet 2/2
MDS2(config-if)# ip address 10.1.1.2 255.255.255.0
MDS2(config-if)# no shutdown
LAB
"$mdsim" --db "$work/lab.db" replay "$work/setup.txt" > /dev/null || fail "setup"

# Virtual time: the operator may not move the clock, the admin may.
serve_start "$work/lab.db" --speed 0 || { fail "serve"; finish; }
printf 'sleep 2147483647\nsleep 5\nshow version | include uptime\n' |
    timeout 60 "$client" -u oper -p 'Op3rat0r!' 127.0.0.1 "$TP" > "$work/op" 2>&1
grep -q "Permission denied: on virtual time sleep" "$work/op" || fail "operator sleep not refused: $(cat "$work/op")"
[ "$(grep -c 'Permission denied' "$work/op")" -eq 2 ] || fail "operator sleep 5 not refused: $(cat "$work/op")"
grep -q "uptime is 0 day(s), 0 hour(s), 0 minute(s)" "$work/op" || fail "clock moved: $(cat "$work/op")"
# A day of lab time is many engine events: under a sanitizer on a loaded
# machine it took longer than the client's usual 15 s for an answer.
printf '@timeout 240\nsleep 2147483647\nsleep 86400\nshow version | include uptime\n' |
    timeout 300 "$client" 127.0.0.1 "$TP" > "$work/adm" 2>&1
grep -q "The lab clock stops at 10 years of lab time" "$work/adm" || fail "admin sleep past 10 years: $(cat "$work/adm")"
grep -q "uptime is 1 day(s), 0 hour(s), 0 minute(s)" "$work/adm" || fail "admin sleep 86400: $(cat "$work/adm")"
serve_stop

# Real time, terminal length 0: Ctrl-C on ping still ends in statistics.
ping_script() {
    cat <<SCRIPT
@send ping 10.1.1.2 count 100\r
@expect icmp_seq=1 
@send \x03
@expect packets received, 0.00% packet loss
@expect MDS1# 
show switchname
SCRIPT
}
timeout 60 "$client" -c "$mdsim" "$work/lab.db" < <(ping_script) > "$work/con" 2>&1 ||
    fail "console: Ctrl-C on ping at terminal length 0: $(tail -5 "$work/con")"
serve_start "$work/lab.db" || { fail "serve"; finish; }
timeout 60 "$client" 127.0.0.1 "$TP" < <(ping_script) > "$work/tn" 2>&1 ||
    fail "telnet: Ctrl-C on ping at terminal length 0: $(tail -5 "$work/tn")"
timeout 60 "$client" -s 127.0.0.1 "$SP" < <(ping_script) > "$work/ssh" 2>&1 ||
    fail "SSH: Ctrl-C on ping at terminal length 0: $(tail -5 "$work/ssh")"
grep -q -e Sanitizer -e 'runtime error' "$SERVE_ERR" && fail "serve: $(grep -A5 -e Sanitizer -e 'runtime error' "$SERVE_ERR")"
finish
