#!/bin/sh
# Replays a golden transcript on a fresh lab and checks every output line.
# A transcript that needs its own lab names it, from the repository's
# root, on a line `! lab: examples/labs/X.lab` (as examples/scripts do).
# usage: run-transcript.sh MDSIM TRANSCRIPT
set -e
mdsim=$1
transcript=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
lab=$(sed -n 's/^! lab: \([^ ]*\)$/\1/p' "$transcript" | head -1)
if [ -n "$lab" ]; then
    root=$(cd "$(dirname "$0")/.." && pwd)
    "$mdsim" --db "$dir/lab.db" lab create "$root/$lab" > /dev/null
fi
"$mdsim" --db "$dir/lab.db" replay --verify "$transcript" > "$dir/out.txt"
