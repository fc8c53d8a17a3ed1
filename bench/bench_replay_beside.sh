#!/bin/bash
# bench_replay_beside: replay throughput with a served session beside it,
# and that session's latency with and without the replay.
#
# The 100,000-line script of bench_replay.sh (`--script-only`) is replayed
#   A. alone, 3 times, each into a fresh lab file (no serve): the reference;
#   B. attached to an idle `mdsim serve` (real time, ports 0) on a fresh lab,
#      3 times, nobody else on it: what attaching alone costs;
#   D. attached to the same serve while one telnet session (mdsim_client,
#      paced at 20 commands/s, on MDS1, the switch the plain script runs on)
#      runs `show interface brief` and a description change on g2/8 over and
#      over: replays back to back, at least 3, for as long as the session runs.
# C and E time that session alone for SECONDS before and after D. For A, B
# and D it prints each replay's wall time, lines/s (best / median) and
# stderr lines (the script is meant to be accepted line for line, attached
# too), and for B and D the owner's voluntary context switches per replayed
# line (threads of serve present before and after it). For C, D and E: the
# session's command count and latency p50 / p99 / max (mdsim_client -L;
# in D the commands of the first second, before the first replay, are left
# out), and whether any command failed.
#
# Prints figures only: it never fails on timing (machines are shared).
# Every wait is bounded; serve and the client are stopped and the temp
# directory removed on exit. mdsim, mdsim_ssh.so and mdsim_client are
# copied first, so a rebuild of the tree during the run does not mix builds.
#
# usage: bench/bench_replay_beside.sh [MDSIM] [SECONDS]
#        (default build/mdsim, mdsim_client beside it; SECONDS 5)
set -u

MDSIM=${1:-build/mdsim}
SECS=${2:-5}
RUNS=3
RATE=20
HERE=$(cd "$(dirname "$0")" && pwd)
CLIENT="$(dirname "$MDSIM")/mdsim_client"
[ -x "$MDSIM" ] && [ -x "$CLIENT" ] ||
    { echo "usage: $0 [MDSIM] [SECONDS] (mdsim_client beside MDSIM)" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mdsim-bench-beside.XXXXXX")
serve_pid=""
client_pid=""
cleanup() {
    for p in $client_pid $serve_pid; do kill -TERM "$p" 2> /dev/null; done
    for p in $client_pid $serve_pid; do
        for _ in $(seq 50); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2> /dev/null
    done
    wait 2> /dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

mkdir "$TMP/bin"
cp "$MDSIM" "$CLIENT" "$TMP/bin/" || exit 2
[ -f "$(dirname "$MDSIM")/mdsim_ssh.so" ] && cp "$(dirname "$MDSIM")/mdsim_ssh.so" "$TMP/bin/"
echo "bench_replay_beside: $MDSIM ($(stat -c %y "$MDSIM" | cut -d. -f1))"
MDSIM="$TMP/bin/mdsim"
CLIENT="$TMP/bin/mdsim_client"

"$HERE/bench_replay.sh" --script-only "$TMP/script.txt" || exit 2
nlines=$(wc -l < "$TMP/script.txt")
echo "script: $nlines lines (bench_replay.sh's), session paced at $RATE commands/s, $SECS s alone"

# the served session: a show and a configuration change, twice over
cat > "$TMP/session.txt" << 'EOF'
show interface brief
configure terminal
interface gigabitethernet 2/8
switchport description bench-a
end
show interface brief
configure terminal
interface gigabitethernet 2/8
switchport description bench-b
end
EOF

now_ns() { date +%s%N; }
# voluntary context switches of process $1, per thread: "TID COUNT" lines
ctxt() {
    local t
    for t in /proc/"$1"/task/*; do
        echo "${t##*/} $(awk '/^voluntary_ctxt/ { print $2 }' "$t/status" 2> /dev/null)"
    done
}
# switches between two ctxt samples, over the threads present in both
ctxt_diff() { awk 'NR == FNR { a[$1] = $2; next } ($1 in a) && $2 != "" { s += $2 - a[$1] } END { print s + 0 }' "$1" "$2"; }

# replay_once DB: one replay (attached when DB is served); sets ms, rate, errs
replay_once() {
    local t0 t1 rc
    t0=$(now_ns)
    timeout 300 "$MDSIM" --db "$1" replay "$TMP/script.txt" > /dev/null 2> "$TMP/err"
    rc=$?
    t1=$(now_ns)
    ms=$(( (t1 - t0) / 1000000 ))
    rate=$(awk -v n="$nlines" -v ns="$((t1 - t0))" 'BEGIN { printf "%.0f", n / (ns / 1e9) }')
    errs=$(grep -c . "$TMP/err")
    if [ "$rc" -ne 0 ]; then
        echo "    replay exited with status $rc$([ $rc = 124 ] && echo ' (timed out after 300 s)'); first errors:"
        head -n 5 "$TMP/err" | sed 's/^/      /'
    fi
}

# summary LABEL RATES: best / median of the lines/s in RATES (one a line)
summary() {
    local n best median
    n=$(printf '%s' "$2" | grep -c .)
    best=$(printf '%s' "$2" | sort -n | tail -n 1)
    median=$(printf '%s' "$2" | sort -n | sed -n "$(((n + 1) / 2))p")
    echo "  $1: best $best lines/s, median $median lines/s ($n replays)"
}

# latency LABEL FILE SKIP RC: count, p50 / p99 / max of FILE after SKIP lines
latency() {
    tail -n +"$(($3 + 1))" "$2" 2> /dev/null | sort -n > "$TMP/lat.sorted"
    local n
    n=$(wc -l < "$TMP/lat.sorted")
    if [ "$n" -eq 0 ]; then
        echo "  $1: no latencies recorded (client exit $4)"
        return
    fi
    awk -v n="$n" -v label="$1" -v rc="$4" '
        { a[NR] = $1 }
        END {
            note = ""
            if (rc == 1) note = " (a command was refused: a line starting with %)"
            else if (rc != 0) note = "  CLIENT EXIT " rc " (no connection, or no answer within 15 s)"
            printf "  %s: %d commands, p50 %d us, p99 %d us, max %d us%s\n", label, n,
                a[int(n * 0.50) + 1], a[int(n * 0.99) + 1], a[n], note
        }' "$TMP/lat.sorted"
}

# ---- A: alone ------------------------------------------------------------------
echo "A. replay alone, each into a fresh lab file (no serve):"
rates=""
for i in $(seq $RUNS); do
    rm -f "$TMP/alone.db" "$TMP/alone.db-wal" "$TMP/alone.db-shm"
    replay_once "$TMP/alone.db"
    printf '    run %d: %6d ms  %7s lines/s  stderr lines %s\n' "$i" "$ms" "$rate" "$errs"
    rates="$rates$rate
"
done
summary "alone" "$rates"

# ---- serve -------------------------------------------------------------------
LAB="$TMP/lab.db"
: > "$TMP/serve.err"
"$MDSIM" --db "$LAB" serve --telnet-port 0 --ssh-port 0 > "$TMP/serve.out" 2> "$TMP/serve.err" &
serve_pid=$!
for _ in $(seq 200); do
    grep -q "^mdsim serve: ready" "$TMP/serve.err" && break
    kill -0 "$serve_pid" 2> /dev/null || break
    sleep 0.1
done
if ! grep -q "^mdsim serve: ready" "$TMP/serve.err"; then
    echo "serve did not start within 20 s: $(cat "$TMP/serve.err")"
    exit 1
fi
# the port table on stdout: "MDS1  MDS1  127.0.0.1:PORT  127.0.0.1:PORT"
TP=$(awk '$1 == "MDS1" { n = split($3, a, ":"); print a[n] }' "$TMP/serve.out")
[ -n "$TP" ] || { echo "no telnet port for MDS1 in serve's output:"; cat "$TMP/serve.out"; exit 1; }
echo "serve: $(sed -n 's/^mdsim serve: //p' "$TMP/serve.err"), MDS1 telnet port $TP, pid $serve_pid"

# ---- B: attached, serve idle ---------------------------------------------------
echo "B. replay attached to the idle serve (no session), same lab each time:"
rates=""
mss=""
for i in $(seq $RUNS); do
    ctxt "$serve_pid" > "$TMP/c0"
    replay_once "$LAB"
    ctxt "$serve_pid" > "$TMP/c1"
    cs=$(ctxt_diff "$TMP/c0" "$TMP/c1")
    printf '    run %d: %6d ms  %7s lines/s  stderr lines %s  owner context switches %s (%.2f per line)\n' \
        "$i" "$ms" "$rate" "$errs" "$cs" "$(awk -v c="$cs" -v n="$nlines" 'BEGIN { print c / n }')"
    rates="$rates$rate
"
    mss="$mss$ms
"
done
summary "attached, idle serve" "$rates"
b_median_ms=$(printf '%s' "$mss" | sort -n | sed -n "$(((RUNS + 1) / 2))p")

# session SECONDS LATFILE: the served session in the background, bounded
session() {
    rm -f "$2"
    timeout $(($1 + 60)) "$CLIENT" -q -e -r "$RATE" -d "$1" -L "$2" 127.0.0.1 "$TP" < "$TMP/session.txt" &
    client_pid=$!
}
# session_end: waits for the session (bounded by its timeout); sets client_rc
session_end() {
    wait "$client_pid"
    client_rc=$?
    client_pid=""
}

# ---- C: the session alone --------------------------------------------------
echo "C. served session alone, $SECS s:"
session "$SECS" "$TMP/lat.C"
session_end
latency "no replay (before)" "$TMP/lat.C" 0 "$client_rc"

# ---- D: the session with replays beside it ------------------------------------
# Long enough for 3 replays at B's pace and then some; replays go on back
# to back while the session runs, so its latencies after the first second
# are all taken beside a replay.
dsecs=$(awk -v ms="$b_median_ms" -v s="$SECS" -v r="$RUNS" 'BEGIN { d = int(1 + r * ms / 1000 * 1.5 + 1); print (d > s ? d : s) }')
echo "D. served session for $dsecs s, replays attached beside it from its second second on:"
session "$dsecs" "$TMP/lat.D"
sleep 1
rates=""
i=0
while [ $i -lt $RUNS ] || kill -0 "$client_pid" 2> /dev/null; do
    i=$((i + 1))
    alive=$(kill -0 "$client_pid" 2> /dev/null && echo "" || echo "  (session over)")
    ctxt "$serve_pid" > "$TMP/c0"
    replay_once "$LAB"
    ctxt "$serve_pid" > "$TMP/c1"
    cs=$(ctxt_diff "$TMP/c0" "$TMP/c1")
    printf '    run %d: %6d ms  %7s lines/s  stderr lines %s  owner context switches %s (%.2f per line)%s\n' \
        "$i" "$ms" "$rate" "$errs" "$cs" "$(awk -v c="$cs" -v n="$nlines" 'BEGIN { print c / n }')" "$alive"
    rates="$rates$rate
"
    [ $i -ge 20 ] && break
done
session_end
summary "attached, beside the session" "$rates"
latency "beside the replays" "$TMP/lat.D" "$RATE" "$client_rc"

# ---- E: the session alone again -----------------------------------------------
echo "E. served session alone again, $SECS s:"
session "$SECS" "$TMP/lat.E"
session_end
latency "no replay (after)" "$TMP/lat.E" 0 "$client_rc"
echo "load: $(uptime | sed 's/.*load average/load average/')"
