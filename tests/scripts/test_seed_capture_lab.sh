#!/bin/sh
# examples/labs/seed-capture.lab: the published capture's command lines
# replay as published (`replay --pace 5`) on a lab created from it, with no
# failed line (exit 0, nothing on stderr), its fcping answered across the
# tunnel and the tuner's counters moving; and after `lab reset` (the lab
# back to its starting configuration) they replay so again, the same.
# usage: test_seed_capture_lab.sh MDSIM
mdsim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
capture=$root/tests/captures/seed-lab-capture.txt
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$mdsim" --db "$dir/c.db" lab create "$root/examples/labs/seed-capture.lab" > "$dir/out" 2> "$dir/err" ||
    fail "lab create: $(cat "$dir/err")"
[ -s "$dir/err" ] && fail "lab create printed on stderr: $(cat "$dir/err")"
for run in 1 2; do
    "$mdsim" --db "$dir/c.db" replay --pace 5 "$capture" > "$dir/r$run.out" 2> "$dir/r$run.err"
    rc=$?
    [ $rc -eq 0 ] || fail "replay $run: exit $rc, want 0: $(head -5 "$dir/r$run.err")"
    [ -s "$dir/r$run.err" ] && fail "replay $run: stderr: $(head -5 "$dir/r$run.err")"
    grep -q '^5 frames sent, 5 frames received, 0 timeouts$' "$dir/r$run.out" ||
        fail "replay $run: fcping got no answer"
    grep -q '^I/Os per sec : [1-9]' "$dir/r$run.out" || fail "replay $run: the tuner's counters did not move"
    # every command line of the capture ran, as given (a space after '#')
    grep '^MDS[12][(#]' "$capture" | sed 's/#\([^ ]\)/# \1/' > "$dir/want"
    grep '^MDS[12][(#]' "$dir/r$run.out" > "$dir/got"
    cmp -s "$dir/want" "$dir/got" || fail "replay $run: command lines differ: $(diff "$dir/want" "$dir/got" | head -4)"
    "$mdsim" --db "$dir/c.db" lab reset > "$dir/out" 2> "$dir/err" || fail "lab reset: $(cat "$dir/err")"
    [ "$(grep -c 'reset to its starting configuration$' "$dir/out")" -eq 2 ] || fail "lab reset said: $(cat "$dir/out")"
done
# the clock runs on across the reset, so figures may move; the shows agree
grep -v -e '^!Time' -e 'usec' -e 'throughput' -e 'response time' -e 'I/Os per sec' -e 'Dropped' -e 'Qlen' \
    -e 'empty' -e 'txdel' -e 'late' -e 'speed' -e 'Errors' -e 'Round-trip' "$dir/r1.out" > "$dir/r1.cmp"
grep -v -e '^!Time' -e 'usec' -e 'throughput' -e 'response time' -e 'I/Os per sec' -e 'Dropped' -e 'Qlen' \
    -e 'empty' -e 'txdel' -e 'late' -e 'speed' -e 'Errors' -e 'Round-trip' "$dir/r2.out" > "$dir/r2.cmp"
cmp -s "$dir/r1.cmp" "$dir/r2.cmp" || fail "the replay after lab reset differs: $(diff "$dir/r1.cmp" "$dir/r2.cmp" | head -6)"

[ $fails -eq 0 ] || exit 1
echo "PASS"
