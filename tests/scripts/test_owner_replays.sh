#!/bin/bash
# One lab, one owner, for replays (docs/lab-owner.md):
# - ten replays started at once on one lab all succeed: the first owns the
#   lab, the nine others run in it; none fails a line with "% Lab database
#   busy" (before, each was a process with its own SQLite connection and
#   they fought over the file's write lock), and the lab keeps what each
#   configured;
# - a replay attached to an owner (a console on virtual time, --speed 0)
#   prints exactly what a replay of its own prints, stdout, stderr and exit
#   code, for every golden transcript with --verify, for --check,
#   --stop-on-error, --follow-prompts, several files and `-`; and it ran in the owner, whose
#   console sees at once what it configured.
# usage: test_owner_replays.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
# a background owner's stderr is /dev/null: sanitizer reports go to files
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
root=$(cd "$(dirname "$0")/../.." && pwd)
db="$work/lab.db"

# ---- ten at once ----
"$mdsim" --db "$db" lab list > /dev/null || fail "lab list"
for i in $(seq 0 9); do
    sw=$((i / 5 + 1)) port=$((i % 5 + 1))
    {
        echo "MDS$sw# configure terminal"
        echo "MDS$sw(config)# interface gigabitethernet2/$port"
        for k in $(seq 150); do
            echo "MDS$sw(config-if)# switchport mtu $((1000 + k))"
            echo "MDS$sw(config-if)# switchport description replay-$i-line-$k"
        done
        echo "MDS$sw(config-if)# end"
    } > "$work/r$i.txt"
done
for i in $(seq 0 9); do
    "$mdsim" --db "$db" replay "$work/r$i.txt" > "$work/r$i.out" 2> "$work/r$i.err" &
    pids[i]=$!
done
for i in $(seq 0 9); do
    wait "${pids[i]}" || fail "replay $i exited $?: $(head -3 "$work/r$i.err")"
    grep -q busy "$work/r$i.out" "$work/r$i.err" && fail "replay $i: $(grep -h busy "$work/r$i.out" "$work/r$i.err" | head -2)"
    [ -s "$work/r$i.err" ] && fail "replay $i wrote to stderr (the owner, too, must print what a replay prints): $(head -3 "$work/r$i.err")"
    [ "$(grep -c '# switchport' "$work/r$i.out")" -eq 300 ] || fail "replay $i ran $(grep -c '# switchport' "$work/r$i.out") lines, want 300"
done
for sw in 1 2; do
    printf 'show running-config | include description\n' | "$mdsim" --db "$db" --switch MDS$sw > "$work/run$sw"
done
for i in $(seq 0 9); do
    grep -q "switchport description replay-$i-line-150$" "$work/run1" "$work/run2" ||
        fail "replay $i's last description is not in the lab"
done
[ -e "$db-owner" ] && fail "the owner directory is left behind after the replays"

# ---- attached replay = own replay ----
# compare NAME ARGS...: `mdsim replay ARGS` on a fresh lab alone, and on a
# fresh lab owned by a console on virtual time.
compare() {
    local name=$1
    shift
    rm -rf "$work"/own.db* "$work"/att.db* "$work/release"
    (cd "$root" && "$mdsim" --db "$work/own.db" replay "$@" < "$work/stdin" > "$work/own.out" 2> "$work/own.err")
    local own_rc=$?
    printf '@timeout 120\n@wait %s/release\nshow switchname\n' "$work" |
        timeout 150 "$client" -c "$mdsim" "$work/att.db" --speed 0 > "$work/con.out" 2>&1 &
    local con=$!
    for _ in $(seq 600); do [ -S "$work/att.db-owner/sock" ] && break; sleep 0.1; done
    [ -S "$work/att.db-owner/sock" ] || fail "$name: no console owns the lab"
    (cd "$root" && "$mdsim" --db "$work/att.db" replay "$@" < "$work/stdin" > "$work/att.out" 2> "$work/att.err")
    local att_rc=$?
    touch "$work/release"
    wait "$con" || fail "$name: console: $(cat "$work/con.out")"
    [ "$own_rc" = "$att_rc" ] || fail "$name: exit $att_rc attached, $own_rc alone"
    cmp -s "$work/own.out" "$work/att.out" || fail "$name: stdout differs:
$(diff "$work/own.out" "$work/att.out" | head -20)"
    cmp -s "$work/own.err" "$work/att.err" || fail "$name: stderr differs:
$(diff "$work/own.err" "$work/att.err" | head -20)"
}
: > "$work/stdin"
n=0
for t in "$root"/tests/transcripts/*.txt; do
    compare "$(basename "$t")" --verify "tests/transcripts/$(basename "$t")"
    n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n transcripts found"
printf 'configure terminal\nswitchname VIA-STDIN\nshow bogus\nend\n' > "$work/stdin"
compare "stdin and files" tests/transcripts/help.txt - "$work/missing-file" tests/transcripts/errors.txt
compare "--check" --check -
compare "--stop-on-error" --stop-on-error -
compare "--follow-prompts" --follow-prompts tests/captures/seed-lab-capture.txt
# the attached replay ran in the owner: its console sees VIA-STDIN at once
compare "plain" -
grep -A1 '# show switchname$' "$work/con.out" | grep -qx VIA-STDIN ||
    fail "the console did not see what the attached replay configured: $(cat "$work/con.out")"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
