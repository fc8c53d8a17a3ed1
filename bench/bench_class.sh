#!/bin/bash
# bench_class.sh: a class of STUDENTS (default 30) on the reference lab
# (examples/labs/san-extension.lab), served in real time by `mdsim class
# serve`, each lab configured as examples/seed-lab.txt does (tunnel over the
# netsim's 10 Mb/s, 200 ms round trip, a drop every 200th frame; the tuner's
# continuous 2 x 256,000-B reads both ways), driven by attached replays.
# Once every lab's fcip1 trunks and its reads run, it measures over SECONDS
# (default 30) of wall time: the CPU of the whole class (every serve and
# the supervisor, from /proc/PID/stat), and each lab's memory: RSS and
# proportional set size (PSS: shared pages divided among the processes
# sharing them, from /proc/PID/smaps_rollup). Prints figures; fails only
# when the class does not come up.
# usage: bench_class.sh [MDSIM] [STUDENTS] [SECONDS]
mdsim=$(realpath "${1:-build/mdsim}")
students=${2:-30}
secs=${3:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
spid=
trap '[ -n "$spid" ] && kill -TERM $spid 2> /dev/null && wait $spid; rm -rf "$dir"' EXIT
cls="$dir/class"
tp=$((20000 + $$ % 5000))
"$mdsim" class create "$cls" --lab "$root/examples/labs/san-extension.lab" --students "$students" \
    --telnet-port $tp --ssh-port $((tp + 2 * students + 10)) > /dev/null || exit 1
"$mdsim" class serve "$cls" 2> "$dir/serve.err" &
spid=$!
for _ in $(seq 600); do
    grep -q "^mdsim class: ready" "$dir/serve.err" && break
    kill -0 $spid 2> /dev/null || { echo "class serve failed: $(tail -3 "$dir/serve.err")"; exit 1; }
    sleep 0.1
done

# Phase 1: the seed lab's configuration and netsim; phase 2, once fcip1
# trunks: the tuner's N ports and their continuous reads.
sed -n '/^MDS1# configure terminal/,/^MDS1# ips netsim drop nth/p' "$root/examples/seed-lab.txt" |
    grep -v '^!' > "$dir/phase1.txt"
cat > "$dir/phase2.txt" << 'EOF'
MDS1# san-ext-tuner
MDS1(san-ext)# nwwn 10:00:00:00:00:00:00:00
MDS1(san-ext)# nport pwwn 11:11:11:11:11:11:11:11 vsan 100 interface g2/2
MDS1(san-ext-nport)# end
MDS2# san-ext-tuner
MDS2(san-ext)# nwwn 20:00:00:00:00:00:00:00
MDS2(san-ext)# nport pwwn 22:22:22:22:22:22:22:22 vsan 100 interface g2/2
MDS2(san-ext-nport)# read command-id 1 target 11:11:11:11:11:11:11:11 transfer-size 256000 outstanding-ios 2 continuous
MDS2(san-ext-nport)# end
MDS1# san-ext-tuner
MDS1(san-ext)# nport pwwn 11:11:11:11:11:11:11:11 vsan 100 interface g2/2
MDS1(san-ext-nport)# read command-id 1 target 22:22:22:22:22:22:22:22 transfer-size 256000 outstanding-ios 2 continuous
MDS1(san-ext-nport)# end
EOF
labs=$(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$cls/roster.csv")
for s in $labs; do
    "$mdsim" --db "$cls/$s.db" replay "$dir/phase1.txt" > /dev/null 2>&1 || echo "$s: phase 1 had errors"
done
for s in $labs; do
    for _ in $(seq 600); do
        echo "show interface fcip1 brief" | "$mdsim" --db "$cls/$s.db" replay - 2> /dev/null | grep -q trunking && break
        sleep 0.1
    done
    "$mdsim" --db "$cls/$s.db" replay "$dir/phase2.txt" > /dev/null 2>&1 || echo "$s: phase 2 had errors"
done

pids="$spid $(pgrep -P $spid | tr '\n' ' ')"
cpu() { local t=0 p; for p in $pids; do t=$((t + $(awk '{ print $14 + $15 }' /proc/$p/stat))); done; echo $t; }
sleep 5 # let the reads settle before measuring
c0=$(cpu)
t0=$(date +%s%N)
sleep "$secs"
c1=$(cpu)
t1=$(date +%s%N)
hz=$(getconf CLK_TCK)
pss=0
rss=0
for p in $(pgrep -P $spid); do
    pss=$((pss + $(awk '/^Pss:/ { print $2 }' /proc/$p/smaps_rollup)))
    rss=$((rss + $(awk '/^Rss:/ { print $2 }' /proc/$p/smaps_rollup)))
done
n=$(echo $labs | wc -w)
first=$(echo $labs | cut -d' ' -f1)
io=$(echo "show san-ext-tuner interface g2/2 nport pwwn 11:11:11:11:11:11:11:11 vsan 100 counters" |
    "$mdsim" --db "$cls/$first.db" replay - 2> /dev/null | grep -E "I/Os per sec|Ingress throughput" | paste -sd";" - | tr -s " ")
trunking=0
for s in $labs; do
    echo "show interface fcip1 brief" | "$mdsim" --db "$cls/$s.db" replay - 2> /dev/null | grep -q trunking &&
        trunking=$((trunking + 1))
done
awk -v c=$((c1 - c0)) -v hz=$hz -v ns=$((t1 - t0)) -v n=$n -v pss=$pss -v rss=$rss -v tr=$trunking -v io="$io" 'BEGIN {
    cores = c / hz / (ns / 1e9)
    printf "class of %d reference labs (%d trunking at the end), tuner reads running; %s: %s\n", n, tr, "first lab", io
    printf "CPU: %.1f %% of one core for the whole class (%.2f %% per lab)\n", cores * 100, cores * 100 / n
    printf "memory: PSS %.1f MB per lab (%.1f MB in all), RSS %.1f MB per lab\n", pss / n / 1024, pss / 1024, rss / n / 1024
}'
"$mdsim" class stop "$cls" > /dev/null
wait $spid
spid=
