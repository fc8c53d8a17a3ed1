#!/bin/bash
# A lab's hosts served (docs/hosts.md): `mdsim serve` gives each host a
# telnet and an SSH port after the switches' (hosts.lab: MDS1, MDS2, then
# H1 and H2), a login with the first switch's accounts, the host's prompt
# and shell; netserver started over SSH on H2 answers netperf typed over
# telnet on H1 through MDS1's simulator (1 ms each way), on the served
# lab's clock (--speed 0: virtual, as replay).
# usage: test_serve_hosts.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
"$mdsim" --db "$work/s.db" lab create "$root/examples/labs/hosts.lab" > /dev/null || fail "lab create"
serve_start "$work/s.db" --speed 0 || { echo "FAIL: serve"; exit 1; }
grep -qE '^H1 +H1 +127.0.0.1:'"$((TP + 2))"' +127.0.0.1:'"$((SP + 2))"'$' "$work/serve.$TP.out" ||
    fail "serve's port list: $(cat "$work/serve.$TP.out")"

printf 'netserver\n' | timeout 60 "$client" -s 127.0.0.1 $((SP + 3)) > "$work/h2" 2>&1 || fail "ssh H2: $(cat "$work/h2")"
grep -qF "root@H2:~# netserver" "$work/h2" || fail "H2's prompt over SSH: $(cat "$work/h2")"
grep -qF "Starting netserver with host 'IN(6)ADDR_ANY' port '12865'" "$work/h2" || fail "netserver: $(cat "$work/h2")"

printf 'ip route\nnetperf -H H2 -t TCP_RR -l 5\nfoo\n' | timeout 60 "$client" 127.0.0.1 $((TP + 2)) > "$work/h1" 2>&1 ||
    fail "telnet H1: $(cat "$work/h1")"
grep -qxF 'root@H1:~# ip route' "$work/h1" || fail "H1's prompt over telnet: $(cat "$work/h1")"
grep -qxF '10.10.10.0/24 dev eth0 proto kernel scope link src 10.10.10.1' "$work/h1" || fail "ip route: $(cat "$work/h1")"
# MDS1's simulator does not join g2/5 and g2/6 yet: no carrier
grep -qF 'establish control: are you sure there is a netserver listening on H2 at port 12865?' "$work/h1" ||
    fail "netperf before the bridge: $(cat "$work/h1")"
grep -qxF 'bash: foo: command not found' "$work/h1" || fail "bash's error: $(cat "$work/h1")"

printf 'configure terminal\nsan-ext-tuner enable\nend\nips netsim enable interface gigabitethernet 2/5 gigabitethernet 2/6\nips netsim delay-ms 1 ingress gigabitethernet 2/5\nips netsim delay-ms 1 ingress gigabitethernet 2/6\n' |
    timeout 60 "$client" 127.0.0.1 "$TP" > "$work/mds1" 2>&1 || fail "telnet MDS1: $(cat "$work/mds1")"
printf 'netperf -H H2 -t TCP_RR -l 5\n' | timeout 60 "$client" 127.0.0.1 $((TP + 2)) > "$work/h1" 2>&1 || fail "telnet H1 again"
# 1 ms each way: a transaction every 2 ms
grep -qE '^16384  87380  1        1       5\.00      49[89]\.[0-9]{2}   $' "$work/h1" || fail "TCP_RR served: $(cat "$work/h1")"
serve_stop
[ "$fails" -eq 0 ] && echo "test_serve_hosts: ok"
exit "$fails"
