#!/bin/sh
# replay follows a transcript's prompts (docs/replay.md):
# - the reference capture (tests/captures/seed-lab-capture.txt) on a fresh
#   lab: by default (and with --follow-prompts) every line runs in its
#   prompt's mode and the only failure is the fcping a real switch refuses
#   too (VSAN 100 is never created in the capture's vsan database); on
#   switches with VSAN 100 and fcip1 not shut down (as the capture's were)
#   and with --pace 5, none fails; with
#   --strict-prompts its config lines fail at exec, with one hint on stderr;
# - a crafted transcript: each move (exec -> config, sub-mode -> exec by
#   end, re-entering a remembered interface, sub-mode -> sub-mode, exec-side
#   san-ext modes) and each mode that cannot be reached, line skipped.
# usage: test_follow_prompts.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
capture="$here/../captures/seed-lab-capture.txt"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# ---- the capture: strict, by default, and with --follow-prompts ----
"$mdsim" --db "$dir/a.db" replay --strict-prompts "$capture" > "$dir/a.out" 2> "$dir/a.err"
rc=$?
[ $rc = 1 ] || fail "without the option: exit $rc, want 1"
[ "$(grep -c 'without --strict-prompts replay runs each line' "$dir/a.err")" = 1 ] ||
    fail "without the option: the hint is not given once: $(head -3 "$dir/a.err")"
grep -q "seed-lab-capture.txt:22: the prompt says config mode but the session is in exec mode" "$dir/a.err" ||
    fail "without the option: no hint at line 22: $(head -1 "$dir/a.err")"
n=$(grep -c 'Invalid command' "$dir/a.err")
[ "$n" -ge 50 ] || fail "without the option: only $n lines in the wrong mode failed"

"$mdsim" --db "$dir/e.db" replay "$capture" > "$dir/e.out" 2> "$dir/e.err"
rc=$?
[ $rc = 1 ] || fail "by default: exit $rc, want 1"
printf '%s\n' "$capture:97: % vsan 100 is not configured" | cmp -s - "$dir/e.err" ||
    fail "by default: stderr is not the one fcping refusal: $(head -3 "$dir/e.err")"
"$mdsim" --db "$dir/b.db" replay --follow-prompts "$capture" > "$dir/b.out" 2> "$dir/b.err"
rc=$?
[ $rc = 1 ] || fail "with the option: exit $rc, want 1"
printf '%s\n' "$capture:97: % vsan 100 is not configured" | cmp -s - "$dir/b.err" ||
    fail "with the option: stderr is not the one fcping refusal: $(cat "$dir/b.err")"
grep -qx 'MDS1(config)# fcip enable' "$dir/b.out" || fail "the first line did not run in config mode"
grep -qx 'GigabitEthernet2/2 20:00:00:00:00:00:00:00 22:22:22:22:22:22:22:22 100' "$dir/b.out" ||
    fail "MDS2's tuner N port is not listed"
# on switches in the state the capture implies but does not show (its
# fcping answers across the tunnel: VSAN 100 exists and fcip1 is not shut
# down), and with time between the lines as the person who typed them had
# (--pace), the whole capture replays without a failed line and the tuner's
# counters move
for sw in MDS1 MDS2; do
    printf '%s\n' "$sw# configure terminal" "$sw(config)# vsan database" "$sw(config-vsan-db)# vsan 100" \
        "$sw(config-vsan-db)# exit" "$sw(config)# feature fcip" "$sw(config)# interface fcip1" \
        "$sw(config-if)# no shutdown" "$sw(config-if)# end"
done > "$dir/before.txt"
"$mdsim" --db "$dir/v.db" replay "$dir/before.txt" > /dev/null 2>&1 || fail "the state before the capture failed"
"$mdsim" --db "$dir/v.db" replay --pace 5 "$capture" > "$dir/v.out" 2> "$dir/v.err"
rc=$?
[ $rc = 0 ] && [ ! -s "$dir/v.err" ] || fail "--pace 5: exit $rc, $(head -3 "$dir/v.err")"
grep -q '^5 frames sent, 5 frames received, 0 timeouts$' "$dir/v.out" || fail "--pace 5: no fcping answer"
grep -q '^I/Os per sec : [1-9]' "$dir/v.out" || fail "--pace 5: the tuner's counters did not move"
"$mdsim" --db "$dir/v.db" replay --pace 3601 "$capture" > /dev/null 2>&1
[ $? = 2 ] || fail "--pace 3601 accepted"
# stdout keeps the transcript's shape: its command lines are the input's
# (replay prints a space after the prompt's '#', as the switch does)
grep '^MDS[12][(#]' "$capture" | sed 's/#\([^ ]\)/# \1/' > "$dir/want"
grep '^MDS[12][(#]' "$dir/b.out" > "$dir/got"
cmp -s "$dir/want" "$dir/got" || fail "the printed command lines differ: $(diff "$dir/want" "$dir/got" | head)"

# ---- each move ----
cat > "$dir/moves.txt" <<'T'
! each move of --follow-prompts
MDS1(config)# interface gigabitethernet2/1
MDS1(config-if)# ip address 10.1.1.1 255.255.255.0
MDS1# show switchname
MDS1(config-if)# switchport mtu 3000
MDS1(config-vsan-db)# vsan 100
MDS1(config-profile)# ip address 10.1.1.1
MDS1(config)# feature fcip
MDS1(config)# fcip profile 1
MDS1(config-if)# switchport description two
MDS1(config-line)# exec-timeout 5
MDS1(config)# san-ext-tuner enable
MDS1(san-ext)# nwwn 10:00:00:00:00:00:00:01
MDS1(san-ext-nport)# stop all
MDS1(san-ext)# nport pwwn 11:11:11:11:11:11:11:11 vsan 100 interface g2/2
MDS1# show san-ext-tuner nports
MDS1(config-fcalias)# member pwwn 11:11:11:11:11:11:11:11
MDS1(san-ext-nport)# stop all
MDS1(san-ext)# exit
MDS1# show running-config interface gigabitethernet2/1
MDS1(config-profile)#ip address 10.1.1.1
MDS1# show fcip profile 1
T
"$mdsim" --db "$dir/c.db" replay --follow-prompts "$dir/moves.txt" > "$dir/c.out" 2> "$dir/c.err"
rc=$?
[ $rc = 1 ] || fail "moves: exit $rc, want 1"
cat > "$dir/c.want" <<T
$dir/moves.txt:7: cannot reach mode config-profile: no fcip profile known on MDS1 (the session is in config mode); line skipped
$dir/moves.txt:11: cannot reach mode config-line: no line known on MDS1 (the session is in config mode); line skipped
$dir/moves.txt:14: cannot reach mode san-ext-nport: no N port known on MDS1 (the session is in san-ext mode); line skipped
$dir/moves.txt:17: cannot reach mode config-fcalias: mdsim has no such mode; line skipped
T
cmp -s "$dir/c.want" "$dir/c.err" || fail "moves: stderr differs: $(diff "$dir/c.want" "$dir/c.err")"
grep -v '^!' "$dir/moves.txt" | sed 's/#\([^ ]\)/# \1/' > "$dir/want"
grep '^MDS1[(#]' "$dir/c.out" > "$dir/got"
cmp -s "$dir/want" "$dir/got" || fail "moves: the printed command lines differ: $(diff "$dir/want" "$dir/got" | head)"
grep -qx '  switchport mtu 3000' "$dir/c.out" || fail "moves: (config-if) was not re-entered from exec"
grep -qx '  switchport description two' "$dir/c.out" || fail "moves: (config-profile) -> (config-if) failed"
grep -q 'Internet Address is 10.1.1.1' "$dir/c.out" || fail "moves: (config-profile) was not re-entered"
grep -qx 'GigabitEthernet2/2 10:00:00:00:00:00:00:01 11:11:11:11:11:11:11:11 100' "$dir/c.out" ||
    fail "moves: (san-ext) was not entered from config"
grep -q 'Enter configuration commands' "$dir/c.out" && fail "moves: a move's output is in the transcript"
"$mdsim" --db "$dir/c.db" replay --strict-prompts --verify "$dir/moves.txt" > /dev/null 2> "$dir/d.err"
n=$(grep -c 'without --strict-prompts replay runs each line' "$dir/d.err")
[ "$n" = 1 ] || fail "--verify without the option: the hint given $n times"

[ $fails = 0 ] || exit 1
echo "PASS"
