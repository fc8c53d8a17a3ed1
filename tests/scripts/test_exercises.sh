#!/bin/bash
# The trainers' exercises (examples/exercises/README.md): for each exercise,
# on a fresh lab (the exercise's own lab.lab and base.txt when it has them)
# kept running by a virtual-time `serve` (so the engine's
# tunnels live on from one replay to the next, as in a class), replay
# base.txt (verified), stage.txt; symptom.txt must verify; replay fix.txt;
# fixed.txt must verify; and symptom.txt and fixed.txt must differ.
# usage: test_exercises.sh MDSIM
# exit 0 ok, 1 a check failed (one FAIL line each)
if [ $# -ne 1 ]; then
    echo "usage: $0 MDSIM" >&2
    exit 2
fi
mdsim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
ex="$root/examples/exercises"
dir=$(mktemp -d)
spid=
stop_serve() {
    if [ -n "$spid" ]; then
        kill "$spid" 2> /dev/null
        wait "$spid" 2> /dev/null
        spid=
    fi
}
trap 'stop_serve; rm -rf "$dir"' EXIT
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# replay WHAT FILE [--verify]: one step on the current lab; false on failure
step() {
    local what=$1 file=$2
    shift 2
    if ! "$mdsim" --db "$dir/lab.db" replay "$@" "$file" > "$dir/out" 2> "$dir/err"; then
        fail "$what: replay $* $file: $(head -c 2000 "$dir/err")"
        return 1
    fi
}

n=0
for d in "$ex"/[0-9]*/; do
    d=${d%/}
    name=$(basename "$d")
    n=$((n + 1))
    for f in README.md stage.txt symptom.txt fix.txt fixed.txt; do
        [ -f "$d/$f" ] || fail "$name: no $f"
    done
    [ -f "$d/stage.txt" ] && [ -f "$d/symptom.txt" ] && [ -f "$d/fix.txt" ] &&
        [ -f "$d/fixed.txt" ] || continue
    if cmp -s "$d/symptom.txt" "$d/fixed.txt"; then
        fail "$name: symptom.txt and fixed.txt are the same"
    fi
    # a fresh lab, and no serve.out of the last one: the shell creates the
    # new file only once the background job runs
    rm -rf "$dir"/lab.db* "$dir/serve.out"
    # an exercise on a lab of its own: its lab.lab and base.txt
    base=$ex/base.txt
    if [ -f "$d/lab.lab" ]; then
        base=$d/base.txt
        "$mdsim" --db "$dir/lab.db" lab create "$d/lab.lab" > /dev/null 2> "$dir/err" ||
            { fail "$name: lab create: $(cat "$dir/err")"; continue; }
    fi
    "$mdsim" --db "$dir/lab.db" serve --speed 0 --telnet-port 0 --ssh-port 0 \
        > "$dir/serve.out" 2>&1 &
    spid=$!
    for _ in $(seq 100); do
        grep -qs 'ready' "$dir/serve.out" && break
        kill -0 "$spid" 2> /dev/null || break
        sleep 0.1
    done
    if ! grep -qs 'ready' "$dir/serve.out"; then
        fail "$name: serve did not start: $(cat "$dir/serve.out" 2> /dev/null)"
        stop_serve
        continue
    fi
    step "$name" "$base" --verify &&
        step "$name" "$d/stage.txt" &&
        step "$name: the symptom" "$d/symptom.txt" --verify &&
        step "$name" "$d/fix.txt" &&
        step "$name: after the fix" "$d/fixed.txt" --verify
    stop_serve
done
[ "$n" -ge 8 ] || fail "$n exercises in $ex, fewer than 8"
[ "$fails" -eq 0 ] || exit 1
echo "ok: $n exercises"
