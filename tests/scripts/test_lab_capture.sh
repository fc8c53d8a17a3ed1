#!/bin/bash
# `mdsim lab capture` on a served lab, and replay --pcap / --series
# attached to one (docs/capture.md). The reference lab served on virtual
# time (serve --speed 0) and replayed into by an attached replay:
# - `lab capture start FILE` ... `stop`: the same bytes as `replay --pcap`
#   of that script on a lab of its own; tshark reads it (interfaces named
#   after the ports, FCIP on 3225, ELP, ELS echo; pings on two
#   ports in classic pcap);
#   a second capture refused, and replay --pcap and ethanalyzer beside it;
#   --port and --format pcap; hostile paths, ports and formats refused
#   with nothing started and no file made, from mdsim and from a peer
#   that speaks the owner's frames itself (tests/tools/owner_peer);
# - `lab capture start -` piped into `tshark -i -` sees FCIP frames while
#   the lab runs, and `lab capture stop` ends the pipe; Ctrl-C ends a
#   stream (exit 0); a streaming client killed frees the slot, the owner
#   going on; a reader that does not read never holds the lab up (its
#   packets are left out whole and counted, the stream stays readable);
# - the owner killed mid-capture leaves a file tshark reads up to its
#   last packet;
# - an attached replay --pcap --series, twice on fresh served labs, gives
#   the bytes of the same replay on a lab of its own.
# usage: test_lab_capture.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v tshark > /dev/null || { echo "SKIP: no tshark"; exit 77; }
cd "$work" || exit 1
# the reference lab up to its first fcping: tunnel, ELP, ELS echo
sed -n '1,/^MDS1# fcping/p' "$root/examples/seed-lab.txt" > short.txt
# then 5 s of MDS1's reads (35 MB of capture): traffic for the slow
# reader and the kill
cat > reads.txt <<'EOF'
MDS1# san-ext-tuner
MDS1(san-ext)# nport pwwn 11:11:11:11:11:11:11:11 vsan 100 int g2/2
MDS1(san-ext-nport)# read command-id 1 target 22:22:22:22:22:22:22:22 transfer-size 256000 outstanding-ios 2 continuous
MDS1(san-ext-nport)# end
MDS1# sleep 5
EOF
cat short.txt reads.txt > busy.txt
ts() { tshark "$@" 2> /dev/null; }
count() { ts -r "$1" -Y "$2" | wc -l; }
# wait_for SECONDS COMMAND...: a condition, polled
wait_for() {
    local n=$(($1 * 10))
    shift
    for _ in $(seq "$n"); do "$@" && return 0; sleep 0.1; done
    return 1
}
grows() { [ -s "$1" ] && [ "$(stat -c %s "$1")" -ge "$2" ]; }

"$mdsim" --db own.db replay --pcap own.pcapng --series own.csv short.txt > own.out 2>&1 || fail "own replay: $(tail -3 own.out)"

# ---- a file: start, a replay, stop ----
serve_start a.db --speed 0 || { fail "serve"; finish; }
"$mdsim" --db a.db lab capture start cap.pcapng > start.out 2>&1 || fail "start: $(cat start.out)"
grep -q "^capturing into $work/cap.pcapng (pcapng)" start.out || fail "start said: $(cat start.out)"
"$mdsim" --db a.db lab capture start two.pcapng > two.out 2>&1
[ $? = 1 ] && grep -q "a capture is already running" two.out && [ ! -e two.pcapng ] || fail "second capture: $(cat two.out)"
echo "MDS1# show switchname" > one.txt
"$mdsim" --db a.db replay --pcap two.pcapng one.txt > two.out 2>&1
[ $? = 1 ] && grep -q "already running" two.out && [ ! -e two.pcapng ] || fail "replay --pcap beside it: $(cat two.out)"
echo "MDS1# ethanalyzer local interface gigabitethernet 2/2 write bootflash:e.pcapng" > eth.txt
"$mdsim" --db a.db replay eth.txt > eth.out 2>&1
grep -q "A capture is already running" eth.out || fail "ethanalyzer beside it: $(cat eth.out)"
"$mdsim" --db a.db replay short.txt > a.out 2>&1 || fail "attached replay: $(tail -3 a.out)"
"$mdsim" --db a.db lab capture stop > stop.out 2>&1 || fail "stop: $(cat stop.out)"
grep -Eq "^[1-9][0-9]* packets captured into $work/cap.pcapng$" stop.out || fail "stop said: $(cat stop.out)"
"$mdsim" --db a.db lab capture stop > stop2.out 2>&1
[ $? = 1 ] && grep -q "no capture is running" stop2.out || fail "stop twice: $(cat stop2.out)"
cmp -s own.pcapng cap.pcapng || fail "the served lab's capture differs from replay --pcap's"
n=$(grep -o '^[0-9]*' stop.out)
[ "$(count cap.pcapng '')" = "$n" ] || fail "tshark reads $(count cap.pcapng '') packets, stop said $n"
[ "$(ts -r cap.pcapng -T fields -e frame.interface_name | sort -u | tr '\n' ,)" = \
  "MDS1 GigabitEthernet2/2,MDS1 GigabitEthernet2/3,MDS1 GigabitEthernet2/4,MDS2 GigabitEthernet2/2," ] ||
    fail "interfaces: $(ts -r cap.pcapng -T fields -e frame.interface_name | sort -u)"
for f in 'tcp.port == 3225' 'fcip.proto == 1 && fcip.sof && fcip.eof' 'fcels && fc.r_ctl == 0x22' \
         'swils.opcode == 0x10'; do
    [ "$(count cap.pcapng "$f")" -ge 1 ] || fail "no '$f' in the capture"
done
[ "$(count cap.pcapng 'ip.checksum.status == 0 || tcp.checksum.status == 0')" = 0 ] || fail "bad checksums"

# one port, classic pcap
"$mdsim" --db a.db lab capture start --port MDS1:2/2 --port MDS2:2/2 --format pcap p.out > p.start 2>&1 ||
    fail "--port --format pcap: $(cat p.start)"
echo "MDS1# ping 192.168.10.2 count 3" > ping.txt
"$mdsim" --db a.db replay ping.txt > ping.out 2>&1 || fail "ping: $(cat ping.out)"
"$mdsim" --db a.db lab capture stop > p.stop 2>&1 || fail "stop: $(cat p.stop)"
[ "$(od -An -tx4 -N4 p.out | tr -d ' ')" = a1b23c4d ] || fail "not classic pcap (nanoseconds): $(od -An -tx4 -N4 p.out)"
[ "$(count p.out 'icmp.type == 8')" = 6 ] && [ "$(count p.out 'icmp.type == 0')" = 6 ] ||
    fail "3 pings on two ports: $(count p.out 'icmp.type == 8') requests, $(count p.out 'icmp.type == 0') replies"

# hostile input: refused, nothing started, no file made
long=$(printf 'p%.0s' $(seq 5000))
bad() { # want-rc message args...
    local want=$1 msg=$2 out rc
    shift 2
    out=$("$mdsim" --db a.db lab capture "$@" 2>&1)
    rc=$?
    [ $rc = "$want" ] && grep -q -- "$msg" <<< "$out" || fail "lab capture ${*:0:80}: exit $rc, $(head -2 <<< "$out")"
}
bad 1 "no such switch in the lab" start --port MDS9:2/2 h.pcapng
bad 1 "MDS1 has no GigabitEthernet9/9" start --port MDS1:9/9 h.pcapng
bad 1 "not SWITCH:SLOT/PORT" start --port MDS1:2/2/3 h.pcapng
bad 1 "not SWITCH:SLOT/PORT" start --port 'MDS1:-1/2' h.pcapng
bad 1 "not SWITCH:SLOT/PORT" start --port 'MDS1:2/ 2' h.pcapng
bad 1 "not SWITCH:SLOT/PORT" start --port 'MDS1:2/+2' h.pcapng
bad 1 "not SWITCH:SLOT/PORT" start --port 'MDS1:99999999999/2' h.pcapng
bad 2 "SWITCH:SLOT/PORT, as MDS1:2/2" start --port MDS1 h.pcapng
bad 2 "SWITCH:SLOT/PORT" start --port 'MDS1:2/2,MDS2:2/2' h.pcapng
bad 2 "SWITCH:SLOT/PORT" start --port "$long:2/2" h.pcapng
bad 2 "at most 64 --port" start $(for i in $(seq 65); do echo --port MDS1:2/2; done) h.pcapng
bad 2 "pcap or pcapng" start --format pcapx h.pcapng
bad 2 "too long" start "$long"
bad 2 "too long" start "$long/$long"
bad 2 "empty" start ''
bad 2 "line break" start "$(printf 'a\nb')"
bad 1 "not a regular file" start /dev/null
bad 1 "cannot write" start /nonexistent/x.pcapng
bad 2 "lab capture start FILE|- or lab capture stop" start a b
bad 2 "lab capture start FILE|- or lab capture stop" frobnicate
bad 1 "Is a directory" start .
mkfifo fifo
bad 1 "not a regular file" start fifo
ls h.pcapng a b > /dev/null 2>&1 && fail "a refused start made a file"
if command -v script > /dev/null; then # a terminal on stdout
    script -qec "'$mdsim' --db a.db lab capture start -" /dev/null > tty.out 2>&1
    grep -q "not writing a capture to a terminal" tty.out || fail "a stream to a terminal: $(head -c 200 tty.out)"
fi
out=$("$mdsim" --db a.db replay --pcap /dev/null one.txt 2>&1)
[ $? = 1 ] && grep -q "not a regular file" <<< "$out" || fail "attached replay --pcap /dev/null: $out"
out=$("$mdsim" --db a.db replay --pcap "$long" one.txt 2>&1)
[ $? = 2 ] && grep -q "too long" <<< "$out" || fail "attached replay --pcap LONG: $out"
# the same from a peer that speaks the owner's frames itself: values no mdsim sends
peer="$(dirname "$mdsim")/owner_peer"
raw() { # name pattern code request [more frames...]
    local name=$1 pattern=$2 code=$3 q=$4
    shift 4
    timeout 40 "$peer" a.db-owner/sock "Q:$q" "$@" > "raw.$name" 2>&1 || fail "raw $name: $(cat "raw.$name")"
    set -- "$name" "$pattern" "$code"
    grep -q "^0 R .*$2" "raw.$1" && grep -qx "0 X $3" "raw.$1" || fail "raw $1: $(head -c 300 "raw.$1")"
}
[ -x "$peer" ] || fail "need $peer"
if [ -x "$peer" ]; then
    C='job=lab-capture-start\n'
    raw long_path "too long" 2 "${C}capture=/$long"
    raw relative "an absolute path" 2 "${C}capture=cap.pcapng"
    raw no_path "an absolute path" 2 "${C}"
    raw empty_port "not SWITCH:SLOT/PORT" 1 "${C}capture=-\nports=MDS1:2/2,,MDS1:2/2"
    raw many_ports "more than 64 --port" 1 "${C}capture=-\nports=$(printf 'MDS1:2/2,%.0s' $(seq 64))MDS1:2/2"
    raw long_ports "too long" 2 "${C}capture=-\nports=$(printf 'MDS1:2/2,%.0s' $(seq 400))"
    raw bad_format "pcap or pcapng" 2 "${C}capture=-\nformat=pcapx"
    raw long_format "too long" 2 "${C}capture=-\nformat=pcapngpcapng"
    raw replay_pcap "not an absolute path" 2 'job=replay\ncapture=x.pcapng' 'F:+a.txt' 'D:show switchname\n' 'G:'
fi
"$mdsim" --db a.db lab capture start ok.pcapng > /dev/null 2>&1 || fail "a start after the refusals"
"$mdsim" --db a.db lab capture stop > /dev/null 2>&1 || fail "a stop after the refusals"
serve_stop > /dev/null || fail "serve A did not stop cleanly"
out=$("$mdsim" --db a.db lab capture start x.pcapng 2>&1)
[ $? = 1 ] && grep -q "nobody runs" <<< "$out" || fail "a lab nobody runs: $out"

# ---- a stream: tshark follows the running lab ----
serve_start b.db --speed 0 || { fail "serve"; finish; }
( "$mdsim" --db b.db lab capture start --port MDS1:2/2 - 2> s.err | tee s.pcapng |
    tshark -l -i - -Y fcip -T fields -e frame.interface_name > s.out 2> ts.err ) &
pipe=$!
wait_for 30 grep -qs "Capturing on" ts.err || fail "tshark did not start: $(cat ts.err)"
"$mdsim" --db b.db replay short.txt > b.out 2>&1 || fail "attached replay: $(tail -3 b.out)"
wait_for 30 grep -qs "MDS1 GigabitEthernet2/2" s.out || fail "tshark saw no FCIP frame while the lab ran"
"$mdsim" --db b.db lab capture stop > s.stop 2>&1 || fail "stop of a stream: $(cat s.stop)"
grep -Eq "^[1-9][0-9]* packets captured, streamed$" s.stop || fail "stop said: $(cat s.stop)"
wait_for 30 eval '! kill -0 $pipe 2> /dev/null' || fail "the stream did not end at stop"
grep -Eq "^mdsim: lab capture: [1-9][0-9]* packets captured$" s.err || fail "the client said: $(cat s.err)"
[ "$(count s.pcapng '')" = "$(grep -o '^[0-9]*' s.stop)" ] || fail "the stream holds $(count s.pcapng '') packets"

# Ctrl-C ends a stream, exit 0, the file whole
"$mdsim" --db b.db lab capture start - > c.pcapng 2> c.err &
client=$!
wait_for 30 grows c.pcapng 28 || fail "no pcapng header streamed"
kill -INT $client
wait $client
rc=$?
[ $rc = 0 ] && grep -q "packets captured" c.err || fail "Ctrl-C: exit $rc, $(cat c.err)"
ts -r c.pcapng -q || fail "tshark cannot read the Ctrl-C'd stream"

# the streaming client killed: the slot frees, the owner goes on
"$mdsim" --db b.db lab capture start - > k.pcapng 2> /dev/null &
client=$!
wait_for 30 grows k.pcapng 28 || fail "no pcapng header streamed"
{ kill -KILL $client; wait $client; } 2> /dev/null
free_slot() { "$mdsim" --db b.db lab capture start f.pcapng > /dev/null 2>&1; }
wait_for 30 free_slot || fail "the slot stayed taken after the client was killed"
"$mdsim" --db b.db lab capture stop > /dev/null 2>&1 || fail "stop after the kill"

# a reader that does not read until the lab is done: the lab runs on, the
# packets it missed are left out whole and counted, and what it then
# reads is a pcapng tshark reads, the next packet saying how many went
( "$mdsim" --db b.db lab capture start - 2> slow.err |
    { while [ ! -e go ]; do sleep 0.1; done; cat > late.pcapng; } ) &
pipe=$!
wait_for 30 grep -qs "streaming" slow.err || fail "the stalled stream did not start: $(cat slow.err)"
# the lab runs to the end of the reads while the reader reads nothing: had
# the tap waited for it, the owner would have given the stream up after
# 30 s (its send timeout) and stop would find no capture
"$mdsim" --db b.db replay reads.txt > reads.out 2>&1 || fail "the reads: $(tail -3 reads.out)"
touch go
# the next packet written after a loss says how many went: on virtual time
# nothing follows the reads, so pings make packets until one says it
echo "MDS1# ping 192.168.10.2 count 1" > ping1.txt
told() { [ "$(count late.pcapng 'frame.comment contains "frames not captured before this one: the reader fell behind"')" -ge 1 ]; }
for _ in $(seq 20); do
    "$mdsim" --db b.db replay ping1.txt > /dev/null 2>&1
    told && break
done
told || fail "no packet says what was left out"
"$mdsim" --db b.db lab capture stop > slow.stop 2>&1 || fail "stop of the stalled stream: $(cat slow.stop)"
grep -Eq "streamed; [1-9][0-9]* not captured: the reader fell behind" slow.stop || fail "stalled stream: $(cat slow.stop)"
wait_for 60 eval '! kill -0 $pipe 2> /dev/null' || fail "the late reader's stream did not end"
ts -r late.pcapng -q || fail "tshark cannot read what the late reader got"
[ "$(count late.pcapng '')" = "$(grep -o '^[0-9]*' slow.stop)" ] ||
    fail "the late reader got $(count late.pcapng '') packets, stop said $(cat slow.stop)"
serve_stop > /dev/null || fail "serve B did not stop cleanly"

# ---- the owner killed mid-capture: the file is whole up to its last packet ----
serve_start c.db --speed 0 || { fail "serve"; finish; }
"$mdsim" --db c.db lab capture start killed.pcapng > /dev/null 2>&1 || fail "start on C"
"$mdsim" --db c.db replay busy.txt > /dev/null 2>&1 &
replay=$!
wait_for 60 grows killed.pcapng 1000000 || fail "the capture did not grow"
{ kill -KILL "$SERVE_PID"; wait "$SERVE_PID"; wait $replay; } 2> /dev/null
# (a kill inside the write of a packet may cut that last one short: the
# kernel ends a regular file's write early for a fatal signal)
tshark -r killed.pcapng -q > /dev/null 2> killed.err ||
    grep -q "cut short in the middle of a packet" killed.err || fail "tshark on a killed owner's capture: $(cat killed.err)"
[ "$(count killed.pcapng '')" -ge 1000 ] || fail "the killed owner's capture holds $(count killed.pcapng '') packets"

# ---- attached replay --pcap --series: the same bytes twice, and as a lab of its own ----
for i in 1 2; do
    serve_start "d$i.db" --speed 0 || { fail "serve"; finish; }
    "$mdsim" --db "d$i.db" replay --pcap "att$i.pcapng" --series "att$i.csv" short.txt > "att$i.out" 2>&1 ||
        fail "attached replay --pcap --series: $(tail -3 "att$i.out")"
    serve_stop > /dev/null || fail "serve D$i did not stop cleanly"
done
cmp -s att1.pcapng att2.pcapng && cmp -s att1.csv att2.csv || fail "two attached replays captured different bytes"
cmp -s own.pcapng att1.pcapng || fail "attached replay --pcap differs from its own lab's"
cmp -s own.csv att1.csv || fail "attached replay --series differs from its own lab's"
cmp -s own.out att1.out || fail "attached replay's output differs"
finish
