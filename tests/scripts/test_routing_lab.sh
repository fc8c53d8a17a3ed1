#!/bin/sh
# Routed WANs (docs/routing.md) on examples/labs/routed-wan.lab: the golden
# routing_wan.txt replays with --verify (static routes, show ip route,
# traceroute, ips measure-rtt, ping and its errors, an FCIP tunnel whose
# smoothed RTT is the hops' 2 x (5 + 20) ms and whose path MTU discovery
# meets WAN2's 1400-byte hop); `lab show` round-trips the routers; bad
# lab files are refused with their line and reason; a router that sends
# no ICMP makes a black hole the tunnel fails on (case O, then M).
# usage: test_routing_lab.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
lab=$root/examples/labs/routed-wan.lab
. "$root/tests/tools/labfile_lib.sh"

"$mdsim" --db "$dir/lab.db" lab create "$lab" > /dev/null || { echo "FAIL: lab create"; exit 1; }
"$mdsim" --db "$dir/lab.db" replay --verify "$here/routing_wan.txt" > "$dir/out" 2> "$dir/err" ||
    fail "replay --verify: $(head -5 "$dir/err")"

roundtrip_db "$dir/lab.db"
grep -q '^  interface eth2 10.1.1.254 255.255.255.0 mtu 1400 delay-ms 20$' "$dir/shown.lab" ||
    fail "lab show lost WAN2's eth2: $(cat "$dir/shown.lab")"

# bad FILE-TEXT EXPECTED (labfile_lib.sh)
bad "$sw
interface eth1 10.0.0.1 255.255.255.0" "bad1.lab:4: interface before any router"
bad "$sw
router MDS1" "bad2.lab:4: switch MDS1 already declared at line 1"
bad "$sw
router R1
interface eth9 10.0.0.1 255.255.255.0" "bad3.lab:5: 'eth9' is not a router port (eth1 to eth8)"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0
router R2
interface eth1 10.0.0.1 255.255.255.0" "bad4.lab:7: address 10.0.0.1 is already router R1's eth1 (line 5)"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0
interface eth2 10.0.0.9 255.255.0.0" "bad5.lab:6: R1's subnet overlaps its eth1 (line 5)"
bad "$sw
router R1
interface eth1 10.0.0.0 255.255.255.0" "bad6.lab:5: 10.0.0.0 is not a host address of its subnet"
bad "$sw
router R1
route 10.1.1.1 255.255.255.0 10.0.0.2" "bad7.lab:5: 10.1.1.1 has bits outside its mask 255.255.255.0"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0 mtu 100" "bad8.lab:5: 100 is out of range (576-9216)"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0
link MDS1 g2/1 R1 eth2" "bad9.lab:6: R1 eth2 has no interface line (declare it above)"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0
link MDS1 g2/1 R1 eth1
link MDS1 g2/2 R1 eth1" "bad10.lab:7: R1 eth1 is already cabled (line 6)"
bad "$sw
router R1
interface eth1 10.0.0.1 255.255.255.0
link R1 eth1 MDS1 g2/1
link MDS1 g2/1 MDS1 g2/2" "bad11.lab:7: MDS1 GigabitEthernet2/1 is already cabled (line 6)"
bad "$sw
router R1
route 10.1.1.0 255.255.255.0 10.0.0.2
route 10.1.1.0 255.255.255.0 10.0.0.3" "bad12.lab:6: router R1 already has a route to 10.1.1.0 255.255.255.0"
routers=$(i=0; while [ $i -lt 65 ]; do echo "router R$i"; i=$((i + 1)); done)
bad "$sw
$routers" "bad13.lab:68: more than 64 routers in one lab"

# a black hole: WAN2 sends no ICMP, full-size segments die at its 1400-byte hop
sed 's/^router WAN2$/router WAN2 no-icmp/' "$lab" > "$dir/hole.lab"
"$mdsim" --db "$dir/hole.db" lab create "$dir/hole.lab" > /dev/null || fail "lab create (no-icmp)"
{
    sed -n '/^MDS1# configure terminal/,/^MDS1# sleep 5/p' "$root/examples/scripts/routed-wan.txt"
    sed -n '/^MDS1# san-ext-tuner/,/^MDS2(san-ext-nport)# end/p' "$root/examples/scripts/routed-wan.txt"
    echo 'MDS1# sleep 30'
    echo 'MDS1# show logging log | include fcip1'
    echo 'MDS1# show interface fcip1 | include Path'
} > "$dir/hole.txt"
"$mdsim" --db "$dir/hole.db" replay "$dir/hole.txt" > "$dir/hole.out" 2>&1 || fail "black hole replay: $(tail -3 "$dir/hole.out")"
grep -q 'IF_DOWN_TCP_MAX_RETRANSMIT.*Interface fcip1 is down(TCP conn. closed - retransmit failure)' "$dir/hole.out" ||
    fail "no retransmit failure through the black hole: $(tail -20 "$dir/hole.out")"
grep -q 'Path MTU 1500 bytes' "$dir/hole.out" || fail "the black hole lowered the path MTU"

[ "$fails" -eq 0 ] || exit 1
echo "ok"
