#!/bin/sh
# The fuzz targets run every input on one lab, undone after each
# (tests/fuzz/fuzz_lab.h, docs/fuzzing.md). Checked here: each seed of
# tests/fuzz/make-corpus.sh and each saved regression input prints the
# same when it runs a second time after other inputs (replay_main
# --twice), so a crash found by the fuzzers reproduces from its input.
# usage: test_fuzz_repeat.sh MDSIM (the fuzz_*_replay programs are beside it)
mdsim=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(dirname "$mdsim")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/tests/fuzz/make-corpus.sh" "$tmp" || { echo "FAIL: make-corpus.sh"; exit 1; }
fails=0
for target in session terminal; do
    if "$bin/fuzz_${target}_replay" --twice "$tmp/$target" "$src/tests/fuzz/regressions/$target" > /dev/null 2> "$tmp/$target.log"; then
        tail -1 "$tmp/$target.log"
    else
        grep -v "failed telnet login" "$tmp/$target.log" | tail -20
        echo "FAIL: fuzz_$target: an input's output depends on the inputs before it"
        fails=$((fails + 1))
    fi
done
exit $((fails > 0))
