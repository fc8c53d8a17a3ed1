#!/bin/bash
# `mdsim replay --pcap`: a capture of the reference lab's first minutes
# (tunnel up, a ping, an fcping, three seconds of the tuner's reads)
# decoded by Debian's tshark: no malformed packet where Wireshark can
# follow (a loss-free run, one port at a time), valid IPv4/TCP/ICMP
# checksums, echo request and reply, FCIP headers, FC R_CTL/OX_ID/SEQ_CNT,
# FCP opcodes, TCP retransmissions and netsim's comments where the
# simulator drops; two captures of one replay byte-identical (also when
# it sets the switches' clocks, from another wall-clock second), and the
# replay's output the same with and without --pcap (docs/capture.md).
# Skipped (77) only without tshark. usage: test_pcap.sh MDSIM
mdsim=$1
command -v tshark > /dev/null || { echo "skip: no tshark (Debian package tshark)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
here=$(cd "$(dirname "$0")/../.." && pwd)

# The reference lab up to its first fcping, then a ping and reads.
sed -n '/^! 1\./,/^MDS1# fcping/p' "$here/examples/seed-lab.txt" | grep -v 'show interface fcip1 brief' > "$work/lab.txt"
cat >> "$work/lab.txt" <<'EOF'
MDS1# ips netsim drop nth 40 ingress g2/4
MDS1# ping 192.168.10.2 count 2
MDS1# san-ext-tuner
MDS1(san-ext)# nport pwwn 11:11:11:11:11:11:11:11 vsan 100 int g2/2
MDS1(san-ext-nport)# read command-id 1 target 22:22:22:22:22:22:22:22 transfer-size 256000 outstanding-ios 2 continuous
MDS1(san-ext-nport)# end
MDS1# sleep 3
MDS1# show ips stats netsim ingress g2/4
EOF
# The same without losses: one outstanding read, no drops, the default queue;
# and 20 s of an idle trunk first, for the FSPF hellos.
grep -v 'drop nth\|qsize' "$work/lab.txt" | sed 's/outstanding-ios 2/outstanding-ios 1/' |
    sed 's/^MDS1# ping /MDS1# sleep 20\n&/' > "$work/clean.txt"

run() { # db script [pcap]
    "$mdsim" --db "$work/$1.db" replay ${3:+--pcap "$work/$3"} "$work/$2" > "$work/$1.out" 2>&1 || fail "replay $*"
}
run plain lab.txt
run cap1 lab.txt cap1.pcapng
run cap2 lab.txt cap2.pcapng
run classic lab.txt cap.pcap
run clean clean.txt clean.pcapng
cmp -s "$work/plain.out" "$work/cap1.out" || fail "the replay's output changes with --pcap"
cmp -s "$work/cap1.pcapng" "$work/cap2.pcapng" || fail "two captures of one replay differ"
# With the switches' clocks set, the FCIP stamps are those clocks: the
# same bytes again from a lab opened in another second of the wall clock.
{ printf 'MDS1# clock set 10:00:00 1 Jan 2026\nMDS2# clock set 10:00:05 1 Jan 2026\n'; cat "$work/lab.txt"; } \
    > "$work/clocks.txt"
run clocks1 clocks.txt clocks1.pcapng
second=$(date +%s)
while [ "$(date +%s)" = "$second" ]; do :; done
run clocks2 clocks.txt clocks2.pcapng
cmp -s "$work/clocks1.pcapng" "$work/clocks2.pcapng" || fail "two captures of a replay that sets clocks differ"
grep -q 'Dropped (tot) = [1-9]' "$work/cap1.out" || fail "netsim dropped nothing"

ts() { tshark -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE "$@" 2> /dev/null; }
count() { ts -r "$1" -Y "$2" | wc -l; }
port() { ts -r "$work/$1" -Y "frame.interface_name == \"$2\"" -w "$work/$3"; }
at_least() { # what file filter min
    local n
    n=$(count "$work/$2" "$3")
    [ "$n" -ge "$4" ] || fail "$1: $n frames of '$3' in $2 (want >= $4)"
}
none() {
    local n
    n=$(count "$work/$2" "$3")
    [ "$n" -eq 0 ] || fail "$1: $n frames of '$3' in $2"
}

ts -r "$work/cap1.pcapng" -q > /dev/null || fail "tshark cannot read the pcapng capture"
ts -r "$work/cap.pcap" -q > /dev/null || fail "tshark cannot read the classic capture"
[ "$(capinfos -T -r -c "$work/cap.pcap" 2>/dev/null | awk '{print $NF}')" = \
  "$(capinfos -T -r -c "$work/cap1.pcapng" 2>/dev/null | awk '{print $NF}')" ] || fail "pcap and pcapng hold different counts"
none checksums cap1.pcapng 'ip.checksum.status == 0 || tcp.checksum.status == 0 || icmp.checksum.status == 0'
at_least checksums cap1.pcapng 'tcp.checksum.status == 1' 1000
at_least interfaces cap1.pcapng 'frame.interface_name == "MDS1 GigabitEthernet2/2"' 100
at_least interfaces cap1.pcapng 'frame.interface_name == "MDS1 GigabitEthernet2/3"' 100
at_least ping cap1.pcapng 'icmp.type == 8' 2
at_least ping cap1.pcapng 'icmp.type == 0' 2
at_least comments cap1.pcapng 'frame.comment contains "netsim: dropped (drop nth)"' 1
at_least comments cap1.pcapng 'frame.comment contains "in the simulator"' 100

# One port at a time (every copy of a packet along its path is in the
# capture: Wireshark's TCP analysis wants one point of view).
port cap1.pcapng "MDS2 GigabitEthernet2/2" mds2.pcapng
at_least retransmissions mds2.pcapng 'tcp.analysis.retransmission || tcp.analysis.fast_retransmission' 1
port clean.pcapng "MDS1 GigabitEthernet2/2" clean1.pcapng
none malformed clean1.pcapng '_ws.malformed || _ws.expert.severity == error'
at_least fcip clean1.pcapng 'fcip.proto == 1 && fcip.sof && fcip.eof' 100
at_least fc clean1.pcapng 'fc.r_ctl == 0x06 && fc.ox_id && fc.seq_cnt == 0' 2  # FCP_CMND
at_least fc clean1.pcapng 'fc.r_ctl == 0x01 && fc.seq_cnt > 0' 100               # FCP_DATA
at_least fcp clean1.pcapng 'fcp.dl == 256000 && scsi_sbc.opcode == 0x28' 2
at_least fcp clean1.pcapng 'fc.r_ctl == 0x07' 2                                  # FCP_RSP
at_least fcping clean1.pcapng 'fcels && fc.r_ctl == 0x22' 1                         # ELS ECHO
at_least ils clean1.pcapng 'swils.opcode == 0x10' 1                              # link parameters (ELP)
at_least fspf clean1.pcapng 'swils.opcode == 0x14' 1                             # FSPF hello

# The special frame (RFC 3821 §6.6) that starts each connection of an
# interface with `special-frame`, and its echo: the golden transcript's
# lab up to its first trunk, seen from MDS1's g2/2.
grep '^MDS[12][#(]' "$here/tests/transcripts/special_frame.txt" | sed -n '1,/show interface fcip1 brief/p' > "$work/sf.txt"
run sf sf.txt sf.pcapng
port sf.pcapng "MDS1 GigabitEthernet2/2" sf1.pcapng
at_least special sf1.pcapng 'fcip.pflags.sf == 1 && fcip.framelen == 19 && fcip.srcwwn && fcip.katov' 4 # 2 conns, 2 echoes
none malformed sf1.pcapng '_ws.malformed || _ws.expert.severity == error'

[ "$fails" -eq 0 ] && echo "ok" || exit 1
