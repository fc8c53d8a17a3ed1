#!/bin/sh
# Hosts in lab files (docs/hosts.md): examples/labs/hosts.lab and a routed
# lab with a host on a router's port and a host-to-host cable round-trip
# through lab show; bad host lines are refused with their line and reason;
# `mdsim --switch H1` reaches the host's shell; the same script on two new
# labs prints the same bytes.
# usage: test_hosts_lab.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/tools/labfile_lib.sh"

roundtrip "$root/examples/labs/hosts.lab" "$dir/rt1.db"
"$mdsim" --db "$dir/rt1.db" lab list > "$dir/list"
grep -qE '^H2 +H2 +\(host\)$' "$dir/list" || fail "lab list lost the hosts: $(cat "$dir/list")"
grep -q '^link H1 eth0 MDS1 GigabitEthernet2/5$' "$dir/shown.lab" || fail "lab show lost H1's cable: $(cat "$dir/shown.lab")"

cat > "$dir/routed.lab" <<'LAB'
switch MDS1 chassis DS-C9509
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
router R1
  interface eth1 10.1.1.254 255.255.255.0 delay-ms 10
  interface eth2 10.2.2.254 255.255.255.0 max-bandwidth-kbps 20000
host A
  interface eth0 10.1.1.10 255.255.255.0 gateway 10.1.1.254
  interface eth1 192.168.7.1 255.255.255.252 mtu 9000
host B
  interface eth0 10.2.2.10 255.255.255.0 gateway 10.2.2.254
host C
  interface eth3 192.168.7.2 255.255.255.252 mtu 9000
link R1 eth1 A eth0
link B eth0 R1 eth2
link A eth1 C eth3
LAB
roundtrip "$dir/routed.lab" "$dir/rt1.db"
for l in '  interface eth0 10.1.1.10 255.255.255.0 gateway 10.1.1.254' '  interface eth1 192.168.7.1 255.255.255.252 mtu 9000' \
    'link A eth0 R1 eth1' 'link B eth0 R1 eth2' 'link A eth1 C eth3'; do
    grep -qxF "$l" "$dir/shown.lab" || fail "lab show lost '$l': $(cat "$dir/shown.lab")"
done

# The routed lab works: A reaches B through R1 (10 ms each way, 20 Mb/s on
# the way back), and C over the jumbo host-to-host cable.
cat > "$dir/routed.txt" <<'TXT'
root@B:~# netserver
root@C:~# netserver
root@A:~# netperf -H B -t TCP_RR -l 5
root@A:~# netperf -H 192.168.7.2 -l 2
root@A:~# ping -c 2 -s 8000 C
TXT
"$mdsim" --db "$dir/rt1.db" replay "$dir/routed.txt" > "$dir/routed.out" 2>&1 || fail "routed replay: $(cat "$dir/routed.out")"
grep -q '^16384  87380  1        1       5.00       49.80   $' "$dir/routed.out" || fail "TCP_RR through R1: $(cat "$dir/routed.out")"
# 8948 of each 9018 bytes at 1 Gb/s: 992.2 Mb/s
grep -qE '^ 87380  16384  16384    2.00      99[12]\.[0-9][0-9]   $' "$dir/routed.out" || fail "jumbo cable: $(cat "$dir/routed.out")"
grep -q '^2 packets transmitted, 2 received' "$dir/routed.out" || fail "jumbo ping: $(cat "$dir/routed.out")"

# A switch's port talks to a host: ping both ways, and the switch's ARP
# table names the host's NIC by the MAC its ip address shows
"$mdsim" --db "$dir/arp.db" lab create "$root/examples/labs/hosts.lab" > /dev/null
cat > "$dir/arp.txt" <<'TXT'
MDS1# configure terminal
MDS1(config)# interface gigabitethernet 2/5
MDS1(config-if)# ip address 10.10.10.254 255.255.255.0
MDS1(config-if)# no shutdown
MDS1(config-if)# end
MDS1# ping 10.10.10.1 count 1
MDS1# show ips arp interface gigabitethernet 2/5
root@H1:~# ping -c 1 10.10.10.254
root@H1:~# ip address
TXT
"$mdsim" --db "$dir/arp.db" replay "$dir/arp.txt" > "$dir/arp.out" 2>&1 || fail "switch to host: $(cat "$dir/arp.out")"
grep -qE '^Internet +10\.10\.10\.1 +0 +026d\.6400\.0000 +ARPA +GigabitEthernet2/5$' "$dir/arp.out" || fail "ARP: $(cat "$dir/arp.out")"
grep -qF 'link/ether 02:6d:64:00:00:00 brd' "$dir/arp.out" || fail "ip address's MAC: $(cat "$dir/arp.out")"
grep -q '^1 packets transmitted, 1 received' "$dir/arp.out" || fail "host ping of the switch: $(cat "$dir/arp.out")"

# bad FILE-TEXT EXPECTED (labfile_lib.sh)
bad "$sw
host MDS1" "bad1.lab:4: switch MDS1 already declared at line 1"
bad "$sw
host H1
interface eth4 10.0.0.1 255.255.255.0" "bad2.lab:5: 'eth4' is not a host port (eth0 to eth3)"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0 gateway 10.0.1.1" "bad3.lab:5: gateway 10.0.1.1 is not another address of eth0's subnet"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0 gateway 10.0.0.254
interface eth1 10.9.0.1 255.255.255.0 gateway 10.9.0.254" "bad4.lab:6: host H1 has its gateway already (line 5)"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0
host H1
interface eth0 10.0.0.1 255.255.255.0" "bad5.lab:7: address 10.0.0.1 is already router R1's eth1 (line 5)"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0
router R1
interface eth1 10.0.0.1 255.255.255.0" "bad6.lab:7: address 10.0.0.1 is already host H1's eth0 (line 5)"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0 delay-ms 5" "bad7.lab:5: a host's port has no impairments"
bad "$sw
host H1
route 10.1.0.0 255.255.0.0 10.0.0.254" "bad8.lab:5: a host has no route lines"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0
link H1 eth1 MDS1 g2/1" "bad9.lab:6: H1 eth1 has no interface line (declare it above)"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0
link H1 eth0 MDS1 g2/1
link MDS1 g2/2 H1 eth0" "bad10.lab:7: H1 eth0 is already cabled (line 6)"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0
host H2
interface eth0 10.0.0.2 255.255.255.0
link H1 eth0 MDS1 g2/1
link H2 eth0 MDS1 g2/1" "bad11.lab:9: MDS1 GigabitEthernet2/1 is already cabled (line 8)"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0
interface eth0 10.0.1.1 255.255.255.0" "bad12.lab:6: H1 eth0 already declared at line 5"
bad "$sw
host H1
interface eth0 10.0.0.1 255.255.255.0
interface eth1 10.0.0.9 255.255.0.0" "bad13.lab:6: H1's subnet overlaps its eth0 (line 5)"
bad "$sw
host 9x" "bad14.lab:4: bad host name '9x'"
hosts=$(i=0; while [ $i -lt 65 ]; do echo "host H$i"; i=$((i + 1)); done)
bad "$sw
$hosts" "bad15.lab:68: more than 64 hosts in one lab"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0 gateway 10.0.0.2" "bad16.lab:5: a router has routes, not a gateway"

# A console on a host: --switch H1, lines on stdin, the host's prompt
"$mdsim" --db "$dir/rt1.db" lab reset > /dev/null 2>&1
printf 'ip route\nhostname\nfoo\n' | "$mdsim" --db "$dir/rt1.db" --switch A > "$dir/console.out" 2>&1
grep -qxF 'root@A:~# ip route' "$dir/console.out" || fail "console prompt: $(cat "$dir/console.out")"
grep -qxF 'default via 10.1.1.254 dev eth0' "$dir/console.out" || fail "console ip route: $(cat "$dir/console.out")"
grep -qF 'bash: foo: command not found' "$dir/console.out" || fail "console error: $(cat "$dir/console.out")"
"$mdsim" --db "$dir/rt1.db" --switch nosuch lab reset > /dev/null 2>&1 && fail "--switch of no node accepted"
"$mdsim" --db "$dir/rt1.db" --switch A lab reset > /dev/null 2> "$dir/reset.err" && fail "lab reset of a host accepted"
grep -qF 'A is a host: it has no configuration to reset' "$dir/reset.err" || fail "lab reset of a host: $(cat "$dir/reset.err")"

# Deterministic: the example on two new labs, the same bytes
for i in 1 2; do
    "$mdsim" --db "$dir/det$i.db" lab create "$root/examples/labs/hosts.lab" > /dev/null
    "$mdsim" --db "$dir/det$i.db" replay "$root/examples/scripts/netperf.txt" > "$dir/det$i.out" 2>&1 ||
        fail "example replay $i: $(tail -3 "$dir/det$i.out")"
done
cmp -s "$dir/det1.out" "$dir/det2.out" || fail "two replays differ: $(diff "$dir/det1.out" "$dir/det2.out" | head)"

[ "$fails" -eq 0 ] && echo "test_hosts_lab: ok"
exit "$fails"
