#!/bin/sh
# A short run of each libFuzzer target (tests/fuzz, docs/fuzzing.md): the
# two fuzzers are built with clang, ASan and UBSan beside the build under
# test (BUILD/fuzz-smoke, rebuilt incrementally by later runs), seeded and
# given dictionaries by tests/fuzz/make-corpus.sh, and run FUZZ_SECONDS
# each (default 20). Any crash, sanitizer report or leak fails the test;
# the input that caused it is kept in ${TMPDIR:-/tmp}. Skipped (77)
# without clang or libFuzzer.
# usage: test_fuzz_smoke.sh MDSIM
mdsim=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-20}
command -v clang > /dev/null || { echo "skip: no clang"; exit 77; }
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' > "$probe/p.c"
clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2> /dev/null ||
    { echo "skip: clang has no libFuzzer (Debian: libclang-rt-14-dev)"; exit 77; }

build="$(cd "$(dirname "$mdsim")" && pwd)/fuzz-smoke"
CC=clang cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMDSIM_FUZZ=ON -DMDSIM_WERROR=ON > "$probe/cmake.log" 2>&1 &&
    cmake --build "$build" -j2 --target fuzz_session fuzz_terminal >> "$probe/cmake.log" 2>&1 ||
    { cat "$probe/cmake.log"; echo "FAIL: the fuzz targets do not build"; exit 1; }
"$src/tests/fuzz/make-corpus.sh" "$probe/corpus" || { echo "FAIL: make-corpus.sh"; exit 1; }

fails=0
for target in session terminal; do
    mkdir -p "$probe/art-$target"
    # The copy of the seeds is the corpus the run grows; stdout is closed
    # (the output of the commands), stderr goes to the log.
    cp -r "$probe/corpus/$target" "$probe/run-$target"
    if "$build/fuzz_$target" -max_total_time="$secs" -close_fd_mask=1 -print_final_stats=1 \
        -dict="$probe/corpus/$target.dict" \
        -artifact_prefix="$probe/art-$target/" "$probe/run-$target" > "$probe/$target.log" 2>&1; then
        echo "fuzz_$target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$probe/$target.log" | grep -o '[0-9]*$') runs" \
            "($(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$probe/$target.log" | grep -o '[0-9]*$')/s) in ${secs}s, no crash"
    else
        grep -v "failed telnet login" "$probe/$target.log" | tail -40
        for a in "$probe/art-$target"/*; do
            [ -f "$a" ] || continue
            keep="${TMPDIR:-/tmp}/mdsim-fuzz_$target-$(basename "$a")"
            cp "$a" "$keep"
            echo "FAIL: fuzz_$target crashed; input kept in $keep (replay: $build/fuzz_$target $keep)"
        done
        fails=$((fails + 1))
    fi
done
exit $((fails > 0))
