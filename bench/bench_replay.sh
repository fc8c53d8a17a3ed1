#!/bin/sh
# bench_replay: configuration replay throughput of mdsim with persistence.
#
# Generates a 100,000-line configuration script (interface mode entries on the
# 8 GE ports of slot 2, ip address / mtu / description changes and their `no`
# forms, shut / no shut, exits, switchname changes, end / configure terminal),
# replays it 3 times, each into a fresh lab file, and prints lines/second
# (best and median, per wall second and, with GNU time, per CPU second of
# the process: the machines are shared), the lab file size, the peak RSS of the replay, and the
# time of a second, separate run of `show running-config` on that lab (the
# cost of reopening it).
#
# Prints figures only: it never fails on timing (machines are shared).
# Target: >= 100,000 lines/s.
#
# usage: bench/bench_replay.sh [path/to/mdsim]     (default build/mdsim)
#        bench/bench_replay.sh --script-only FILE   writes the script to FILE
#            and exits (bench_replay_beside.sh replays the same script)
set -eu

SCRIPT_ONLY=""
if [ "${1:-}" = "--script-only" ]; then
    SCRIPT_ONLY=${2:?"usage: $0 --script-only FILE"}
    set -- /bin/true
fi
MDSIM=${1:-build/mdsim}
LINES=${BENCH_REPLAY_LINES:-100000}
RUNS=3
TARGET=100000

[ -x "$MDSIM" ] || { echo "bench_replay: $MDSIM is not an executable" >&2; exit 2; }
case $MDSIM in /*) ;; *) MDSIM=$(pwd)/$MDSIM ;; esac

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mdsim-bench-replay.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# GNU time (Debian package `time`) gives the peak RSS; without it the peak is
# read from VmHWM in /proc while the replay runs.
GNU_TIME=""
if [ -z "${BENCH_NO_GNU_TIME:-}" ] && [ -x /usr/bin/time ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
    GNU_TIME=/usr/bin/time
fi

now_ns() { date +%s%N; }

# ---- the script ------------------------------------------------------------
# A fixed seed keeps the script identical between runs and machines.
awk -v total="$LINES" 'BEGIN {
    srand(20261130);
    n = 0;
    # Port p only ever gets addresses in 10.p.0.0/16: mdsim refuses a
    # subnet that overlaps one on another port (as NX-OS does), and the script
    # is meant to be accepted line for line.
    split("255.255.255.0 255.255.0.0 255.255.255.252 255.255.255.128", masks, " ");
    split("uplink to core|storage array A port 1|backup tape library|host esx-07 hba0|replication link to DR site|spare|mgmt", descs, "|");
    split("576 1500 2048 2300 4000 9000", mtus, " ");
    out("configure terminal");
    while (n < total) {
        r = rand();
        if (r < 0.01) { out("switchname mds-lab-" int(rand() * 100)); continue; }
        if (r < 0.015) { out("end"); out("configure terminal"); continue; }
        port = 1 + int(rand() * 8);
        out("interface gigabitethernet 2/" port);
        k = 1 + int(rand() * 5);
        for (j = 0; j < k && n < total; j++) {
            c = rand();
            if (c < 0.30 || (c < 0.35 && !hasip[port])) {
                # a host address valid for its mask: neither the network
                # nor the broadcast address of the subnet
                m = 1 + int(rand() * 4);
                if (masks[m] == "255.255.255.252") last = 4 * int(rand() * 64) + 1 + int(rand() * 2);
                else if (masks[m] == "255.255.255.128") last = 128 * int(rand() * 2) + 1 + int(rand() * 126);
                else last = 1 + int(rand() * 254);
                addr[port] = "10." port "." int(rand() * 256) "." last " " masks[m];
                out("ip address " addr[port]);
                hasip[port] = 1;
            } else if (c < 0.35) { out("no ip address " addr[port]); hasip[port] = 0; }
            else if (c < 0.50) out("switchport mtu " mtus[1 + int(rand() * 6)]);
            else if (c < 0.55) out("no switchport mtu");
            else if (c < 0.70) out("switchport description " descs[1 + int(rand() * 7)]);
            else if (c < 0.73) out("no switchport description");
            else if (c < 0.85) out("no shutdown");
            else out("shutdown");
        }
        out("exit");
    }
}
function out(s) { if (n < total) { print s; n++ } }' > "$TMP/script.txt"

if [ -n "$SCRIPT_ONLY" ]; then
    cp "$TMP/script.txt" "$SCRIPT_ONLY"
    exit 0
fi

nlines=$(wc -l < "$TMP/script.txt")
echo "bench_replay: $MDSIM"
echo "script: $nlines lines ($(wc -c < "$TMP/script.txt") bytes), ${RUNS} runs, each into a fresh lab file"

# ---- replay runs -------------------------------------------------------------
# Runs the replay into $TMP/lab$1.db; sets elapsed_ns, peak_kb, cpu_s
# (user + system, empty without GNU time), errors.
replay_once() {
    db="$TMP/lab$1.db"
    rm -f "$db" "$db-wal" "$db-shm"
    if [ -n "$GNU_TIME" ]; then
        t0=$(now_ns)
        set +e
        "$GNU_TIME" -f "%U %S %M" -o "$TMP/rss" "$MDSIM" --db "$db" replay "$TMP/script.txt" \
            >/dev/null 2>"$TMP/err"
        rc=$?
        set -e
        t1=$(now_ns)
        peak_kb=$(tail -n 1 "$TMP/rss" | awk '{ print $3 }')
        cpu_s=$(tail -n 1 "$TMP/rss" | awk '{ printf "%.2f", $1 + $2 }')
    else
        cpu_s=""
        t0=$(now_ns)
        "$MDSIM" --db "$db" replay "$TMP/script.txt" >/dev/null 2>"$TMP/err" &
        pid=$!
        peak_kb=0
        while kill -0 "$pid" 2>/dev/null; do
            h=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
            [ -n "$h" ] && [ "$h" -gt "$peak_kb" ] && peak_kb=$h
            sleep 0.005
        done
        set +e
        wait "$pid"
        rc=$?
        set -e
        t1=$(now_ns)
    fi
    elapsed_ns=$((t1 - t0))
    errors=$(grep -c . "$TMP/err" || true)
    if [ "$rc" -ne 0 ]; then
        echo "  run $1: mdsim exited with status $rc; first errors:"
        head -n 5 "$TMP/err" | sed 's/^/    /'
    fi
}

rates=""
cpu_rates=""
peaks=""
peak_how="GNU time %M"
[ -n "$GNU_TIME" ] || peak_how="VmHWM sampled every 5 ms"
for i in $(seq 1 $RUNS); do
    replay_once "$i"
    rate=$(awk -v n="$nlines" -v ns="$elapsed_ns" 'BEGIN { printf "%.0f", n / (ns / 1e9) }')
    printf '  run %d: %8.3f s  %9s lines/s  peak RSS %s kB  stderr lines %s\n' \
        "$i" "$(awk -v ns="$elapsed_ns" 'BEGIN { print ns / 1e9 }')" "$rate" "$peak_kb" "$errors"
    rates="$rates$rate
"
    if [ -n "$cpu_s" ]; then
        cpu_rate=$(awk -v n="$nlines" -v c="$cpu_s" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }')
        printf '         %s s CPU  %9s lines per CPU second\n' "$cpu_s" "$cpu_rate"
        cpu_rates="$cpu_rates$cpu_rate
"
    fi
    peaks="$peaks$peak_kb
"
done

best=$(printf '%s' "$rates" | sort -n | tail -n 1)
median=$(printf '%s' "$rates" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
peak_max=$(printf '%s' "$peaks" | sort -n | tail -n 1)
db="$TMP/lab$RUNS.db"
size=$(wc -c < "$db")
wal=0
[ -f "$db-wal" ] && wal=$(wc -c < "$db-wal")

verdict="misses"
[ "$median" -ge "$TARGET" ] && verdict="meets"
echo "replay throughput: best $best lines/s, median $median lines/s (target >= $TARGET lines/s: median $verdict it)"
if [ -n "$cpu_rates" ]; then
    echo "per CPU second: best $(printf '%s' "$cpu_rates" | sort -n | tail -n 1), median $(printf '%s' "$cpu_rates" | sort -n | sed -n "$(((RUNS + 1) / 2))p") lines (GNU time, user + system, 10 ms resolution)"
fi
echo "lab file size after replay: $size bytes (+ $wal bytes WAL)"
echo "peak RSS of the replay: $peak_max kB (largest of $RUNS runs, $peak_how)"

# ---- reopen: a separate show running-config on the replayed lab --------------
echo "show running-config" > "$TMP/show.txt"
best_show=""
for i in 1 2 3; do
    t0=$(now_ns)
    "$MDSIM" --db "$db" replay "$TMP/show.txt" > "$TMP/show.out" 2>&1 || true
    t1=$(now_ns)
    ms=$(awk -v ns="$((t1 - t0))" 'BEGIN { printf "%.2f", ns / 1e6 }')
    printf '  show running-config run %d: %s ms\n' "$i" "$ms"
    if [ -z "$best_show" ] || awk -v a="$ms" -v b="$best_show" 'BEGIN { exit !(a < b) }'; then
        best_show=$ms
    fi
done
echo "reopen + show running-config: best $best_show ms ($(wc -l < "$TMP/show.out") output lines, $(grep -c '^interface' "$TMP/show.out" || true) interfaces)"
