#!/bin/sh
# bench_seed_lab.sh: wall and CPU time to replay examples/seed-lab.txt, the
# reference lab end to end (FCIP over the simulator, 3 x 60 s of the
# tuner's traffic plus fcping: 185 simulated seconds), best and median of 5
# runs each on a fresh lab. Target: a 60 s run under 0.3 s, i.e. the whole
# file (3 runs of 60 s) under 0.9 s. Prints figures, never fails on time.
# usage: bench_seed_lab.sh [MDSIM]
mdsim=${1:-build/mdsim}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for i in 1 2 3 4 5; do
    rm -rf "$dir"/l.db*
    t0=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$dir/cpu" "$mdsim" --db "$dir/l.db" replay "$root/examples/seed-lab.txt" > /dev/null 2>&1
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000000 )) $(awk '{ printf "%d", ($1 + $2) * 1000 }' "$dir/cpu")" >> "$dir/runs"
done
sort -n "$dir/runs" | awk '{ w[NR] = $1; c[NR] = $2 } END {
    printf "seed-lab replay (185 simulated s): wall best %d ms, median %d ms; CPU of that run %d ms", w[1], w[3], c[1]
    printf " -> %.0fx real time per wall second (best)\n", 185000 / (w[1] ? w[1] : 1) }'
