#!/bin/bash
# The sampler's cost in a served lab: `mdsim serve --speed 0` (recording
# from its start), the reference lab (examples/seed-lab.txt, 185 s of lab
# time) replayed into it by an attached replay, timed with the recording
# on and with `series stop` as the replay's first line; best of 3 each.
# usage: bench/bench_served_series.sh MDSIM
mdsim=$1
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill $pid 2> /dev/null; rm -rf "$work"' EXIT
{ echo "MDS1# series stop"; cat "$root/examples/seed-lab.txt"; } > "$work/off.txt"
run() { # run SCRIPT: seconds of the attached replay
    rm -f "$work"/l.db*
    "$mdsim" --db "$work/l.db" serve --telnet-port 0 --ssh-port 0 --speed 0 > /dev/null 2> "$work/err" &
    pid=$!
    until grep -q "ready" "$work/err"; do sleep 0.05; done
    local t0 t1
    t0=$(date +%s.%N)
    "$mdsim" --db "$work/l.db" replay "$1" > /dev/null 2>&1
    t1=$(date +%s.%N)
    kill $pid; wait $pid 2> /dev/null
    echo "$t1 - $t0" | bc
}
best() { for _ in 1 2 3; do run "$1"; done | sort -n | head -1; }
echo "sampler on:  $(best "$root/examples/seed-lab.txt") s"
echo "sampler off: $(best "$work/off.txt") s"
