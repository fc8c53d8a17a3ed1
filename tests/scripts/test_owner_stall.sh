#!/bin/bash
# The owner's socket against clients that stall or break the frames
# (docs/lab-owner.md, "Limits"):
# - 32 connections that sent a replay request and part of its input, then
#   nothing (every place the owner has), do not lock the lab: a new replay
#   takes the place of the one stalled longest, which is told why and
#   exits 1; an idle attached console keeps its place;
# - a bad frame gets a message that says what was wrong with it (an
#   unexpected type, a file with no name, data before a file, a frame over
#   64 KiB, a type byte of 0, no request first, a frame cut short), where
#   every one of them used to get "replay input over 64 MiB or 1024 files"
#   or nothing at all.
# (Before: the stalled uploaders held their places for ever, and every
# later replay and console was refused: "too many processes attached".)
# usage: test_owner_stall.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
peer="$(dirname "$mdsim")/owner_peer"
[ -x "$peer" ] || { echo "FAIL: need $peer"; exit 1; }
db="$work/lab.db"
sock="$db-owner/sock"
serve_start "$db" || { fail "serve"; finish; }
[ -S "$sock" ] || { fail "no owner socket at $sock"; finish; }

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (30 s).
wait_for() {
    for _ in $(seq 300); do
        grep -q "$2" "$1" 2> /dev/null && return 0
        sleep 0.1
    done
    return 1
}

# ---- each bad frame says what it is ----
# frames NAME PATTERN CODE STEP...: one connection doing STEP..., whose
# stderr must match PATTERN and whose exit code must be CODE.
frames() {
    local name=$1 pattern=$2 code=$3
    shift 3
    timeout 40 "$peer" "$sock" "$@" > "$work/$name.out" 2>&1 || fail "$name: owner_peer: $(cat "$work/$name.out")"
    grep -q "^0 R .*$pattern" "$work/$name.out" || fail "$name: stderr lacks '$pattern': $(cat "$work/$name.out")"
    grep -qx "0 X $code" "$work/$name.out" || fail "$name: exit code not $code: $(cat "$work/$name.out")"
    grep -q "too much for one run" "$work/$name.out" && fail "$name: blamed on the input's size"
}
Q='Q:job=replay\npid=1\n'
frames unexpected_type "protocol error: frame type 'I' where replay input (F, D or G) was expected" 2 \
    "$Q" 'F:+a.txt' 'D:show switchname\n' 'I:x'
frames empty_name "protocol error: a replay file with no name" 2 "$Q" 'F:+'
frames bad_mark "protocol error: a replay file frame must start with + or !" 2 "$Q" 'F:a.txt'
frames data_first "protocol error: replay data before any file" 2 "$Q" 'D:show switchname\n'
frames no_file "protocol error: no replay file before the end of the input" 2 "$Q" 'G:'
frames too_big "protocol error: a frame of 65537 bytes, over the 64 KiB limit" 2 "$Q" 'F:+a.txt' 'hdr:68:65537'
frames no_type "protocol error: a frame with no type (byte 0)" 2 "$Q" 'hdr:0:0'
frames no_request "protocol error: frame type 'F' where a request (Q) was expected" 2 'F:+a.txt'
# the frames that take the receive timeout (10 s), at once
frames cut_short "protocol error: a frame cut short" 1 "$Q" 'F:+a.txt' 'hdr:68:100' 'bytes:show' &
cut=$!
frames silent "no request within 10 s" 1 'bytes:' &
silent=$!
wait $cut
wait $silent
# a good upload through the same tool runs
timeout 40 "$peer" "$sock" "$Q" 'F:+a.txt' 'D:show switchname\n' 'G:' > "$work/good.out" 2>&1
grep -q "^0 O " "$work/good.out" && grep -qx "0 X 0" "$work/good.out" ||
    fail "a good upload did not run: $(cat "$work/good.out")"

# ---- 32 stalled uploaders ----
mkfifo "$work/hold" "$work/hold-console"
"$peer" -w "$sock" 'Q:job=console\npid=2\n' < "$work/hold-console" > "$work/console.out" 2>&1 &
console_peer=$!
exec 4> "$work/hold-console"
wait_for "$work/console.out" '^ready' || fail "the console did not attach: $(cat "$work/console.out")"
"$peer" -w -n 31 "$sock" "$Q" 'F:+stalled.txt' 'D:show switchname\n' < "$work/hold" > "$work/stalled.out" 2>&1 &
stalled_peer=$!
exec 3> "$work/hold"
wait_for "$work/stalled.out" '^ready' || fail "the stalled clients did not attach: $(cat "$work/stalled.out")"
grep -q "too many" "$work/stalled.out" && fail "a stalled client was refused: $(cat "$work/stalled.out")"
printf 'show switchname\n' > "$work/one.txt"
# A stalled client gives its place only once it has stalled a moment (a
# fast upload that merely came first keeps its own): try until then.
for _ in $(seq 100); do
    timeout 30 "$mdsim" --db "$db" replay "$work/one.txt" > "$work/new.out" 2> "$work/new.err" && break
    grep -q "too many processes attached" "$work/new.err" || break
    sleep 0.2
done
grep -qx "MDS1" "$work/new.out" || fail "a new replay did not run beside 32 stalled clients: $(cat "$work/new.err")"
wait_for "$work/stalled.out" "R mdsim: .*dropped" ||
    fail "no stalled client was told it was dropped: $(cat "$work/stalled.out")"
wait_for "$work/stalled.out" "^[0-9]* X 1$" || fail "the dropped client's exit code is not 1: $(cat "$work/stalled.out")"
grep -q "^0 \(X\|closed\)" "$work/console.out" && fail "the idle console lost its place: $(cat "$work/console.out")"
exec 3>&- 4>&-
wait $stalled_peer $console_peer
serve_stop || fail "serve did not stop cleanly"
finish
