#!/bin/bash
# Benchmark of `mdsim serve` (prints figures, asserts nothing): commands
# per second and p50/p99 latency over telnet and SSH, with 1 and with 50
# concurrent sessions, the server's CPU time per command (from /proc, so
# a loaded machine does not inflate it), and the resident memory of an
# idle server.
# usage: bench/bench_serve.sh MDSIM [SECONDS]
mdsim=$1
secs=${2:-5}
client="$(dirname "$mdsim")/mdsim_client"
[ -x "$mdsim" ] && [ -x "$client" ] || { echo "usage: $0 MDSIM [SECONDS] (mdsim_client beside it)"; exit 2; }
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; wait 2> /dev/null; rm -rf "$work"' EXIT
TP=$((10000 + (RANDOM * 31 + $$) % 22000))
SP=$((TP + 16))
"$mdsim" --db "$work/lab.db" serve --telnet-port "$TP" --ssh-port "$SP" > /dev/null 2> "$work/err" &
pid=$!
for _ in $(seq 100); do grep -q ready "$work/err" && break; sleep 0.1; done
grep -q ready "$work/err" || { cat "$work/err"; exit 1; }
rss() { awk '/VmRSS/ { print $2 " kB" }' "/proc/$pid/status"; }
# CPU time of the server so far (user + system), in clock ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
echo "idle serve, 2 switches: RSS $(rss)"

# a mix of shows and one configuration change, as a person types them
cat > "$work/script" <<'SCRIPT'
show switchname
show interface brief
configure terminal
interface gigabitethernet2/1
switchport description bench
end
show running-config interface gigabitethernet2/1
SCRIPT

# run NAME SESSIONS CLIENT-OPTS PORT: SESSIONS clients for $secs seconds.
# Unpaced clients send the next command as soon as the answer is in: the
# server is saturated and latency is queueing. Paced ones (-r) send 20
# commands/s each, an automation-like load: latency is service time.
run() {
    local name=$1 n=$2 opt=$3 port=$4 i
    rm -f "$work"/lat.*
    local t0
    t0=$(cpu_ticks)
    for i in $(seq "$n"); do
        "$client" -q $opt -d "$secs" -L "$work/lat.$i" 127.0.0.1 $((port + i % 2)) < "$work/script" &
    done
    wait $(jobs -p | grep -v "^$pid\$") 2> /dev/null
    cat "$work"/lat.* | sort -n > "$work/all"
    local count p50 p99 cpu
    count=$(wc -l < "$work/all")
    # server CPU per command: what the machine's load does not distort
    cpu=$(awk -v t="$(( $(cpu_ticks) - t0 ))" -v hz="$hz" -v n="$count" \
        'BEGIN { printf "%.0f", n ? t / hz * 1e6 / n : 0 }')
    p50=$(awk -v n="$count" 'NR == int(n * 0.50) + 1' "$work/all")
    p99=$(awk -v n="$count" 'NR == int(n * 0.99) + 1' "$work/all")
    printf '%-8s %3d sessions%-8s: %7d commands/s   p50 %6d us   p99 %7d us   server CPU %4d us/command\n' \
        "$name" "$n" "${5:-}" $((count / secs)) "$p50" "$p99" "$cpu"
}
run telnet 1 "" "$TP"
run ssh 1 "-s" "$SP"
run telnet 50 "" "$TP"
run ssh 50 "-s" "$SP"
run telnet 50 "-r 20" "$TP" " @20/s"
run ssh 50 "-s -r 20" "$SP" " @20/s"
echo "after the runs, idle again: RSS $(rss)"
