#!/bin/sh
# Replays a golden transcript on a fresh lab and checks every output line.
# usage: run-transcript.sh MDSIM TRANSCRIPT
set -e
mdsim=$1
transcript=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$mdsim" --db "$dir/lab.db" replay --verify "$transcript" > "$dir/out.txt"
