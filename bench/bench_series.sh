#!/bin/sh
# bench_series.sh: what the time series cost (docs/series.md): wall and CPU
# time of `mdsim replay examples/seed-lab.txt` (185 simulated seconds)
# without and with `--series FILE.csv --plots DIR` (185 samples of ~50
# series, the CSV and four SVGs written), best of 5 fresh labs each.
# Prints figures, never fails on time. usage: bench_series.sh [MDSIM]
mdsim=${1:-build/mdsim}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # $1: label, then the replay's options
    label=$1
    shift
    : > "$dir/runs"
    for i in 1 2 3 4 5; do
        rm -rf "$dir"/l.db* "$dir/plots"
        t0=$(date +%s%N)
        /usr/bin/time -f "%U %S" -o "$dir/cpu" "$mdsim" --db "$dir/l.db" replay "$@" "$root/examples/seed-lab.txt" \
            > /dev/null 2>&1
        t1=$(date +%s%N)
        echo "$(( (t1 - t0) / 1000000 )) $(awk '{ printf "%d", ($1 + $2) * 1000 }' "$dir/cpu")" >> "$dir/runs"
    done
    sort -n "$dir/runs" | awk -v l="$label" '{ w[NR] = $1; c[NR] = $2 } END {
        printf "seed-lab replay %s: wall best %d ms, median %d ms; CPU of the best run %d ms\n", l, w[1], w[3], c[1] }'
}
run "without --series"
run "with --series --plots" --series "$dir/s.csv" --plots "$dir/plots"
