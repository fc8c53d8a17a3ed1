#!/bin/sh
# replay --verify ignores what a switch varies by itself and names every
# line that differs (docs/replay.md, cli/verify_mask.c):
# - a transcript captured on one lab (the wall clock's calendar, up 100 s)
#   verifies against a fresh lab whose clock is set to 2031: !Time:, the
#   startup-config's save time, show version's uptime, show clock, the
#   log's stamps and "Interface last changed at" differ, and are masked;
# - real differences are still caught, each line named: two changed lines
#   of one command, a changed mnemonic in a log line whose stamp is masked,
#   a missing line and an extra one; exit 1.
# usage: test_replay_verify.sh MDSIM
mdsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat > "$dir/script.txt" <<'T'
MDS1# configure terminal
MDS1(config)# feature fcip
MDS1(config)# interface fcip1
MDS1(config-if)# no shutdown
MDS1(config-if)# end
MDS1# show running-config
MDS1# show version
MDS1# show clock
MDS1# show logging logfile
MDS1# show interface fcip1
MDS1# copy running-config startup-config
MDS1# show startup-config
MDS1# show switchname
T
# the capture's switch has been up 100 s longer (a `sleep 100` first, its
# line left out of the capture)
echo 'sleep 100' > "$dir/up.txt"
"$mdsim" --db "$dir/a.db" replay "$dir/up.txt" "$dir/script.txt" > "$dir/a.out" 2> "$dir/a.err" ||
    fail "the capture run failed: $(cat "$dir/a.err")"
sed 1d "$dir/a.out" > "$dir/capture.txt"
# what the capture must hold for the test to mean something
for want in '^!Time: ' '^Kernel uptime is 0 day(s), 0 hour(s), 1 minute(s), 40 second(s)$' \
    '^[0-9:]*\.000 UTC ' 'MDS1 %VSHD-5-VSHD_SYSLOG_CONFIG_I' 'Interface last changed at ' \
    '^!Startup config saved at: '; do
    grep -q "$want" "$dir/capture.txt" || fail "the capture has no line like '$want'"
done

# ---- a second run on a fresh lab, another day: passes ----
echo 'clock set 10:00:00 1 January 2031' | "$mdsim" --db "$dir/b.db" replay - > /dev/null 2>&1 ||
    fail "clock set failed"
"$mdsim" --db "$dir/b.db" replay --verify "$dir/capture.txt" > "$dir/b.out" 2> "$dir/b.err"
rc=$?
[ $rc = 0 ] && [ ! -s "$dir/b.err" ] || fail "a second run: exit $rc, $(head -5 "$dir/b.err")"
grep -q '^!Time: Wed Jan  1 10:00:[0-5][0-9] 2031$' "$dir/b.out" || fail "the second run is not on its own clock"
grep -q '^Kernel uptime is 0 day(s), 0 hour(s), 0 minute(s), 0 second(s)$' "$dir/b.out" ||
    fail "the second run's uptime is not its own"

# ---- real differences: every line named, exit 1 ----
c="$dir/capture.txt"
n_boot=$(grep -n '^  bootflash:    1000440 kB$' "$c" | cut -d: -f1)
n_dev=$(grep -n '^  Device name: MDS1$' "$c" | cut -d: -f1)
n_log=$(grep -n 'MDS1 %VSHD-5-VSHD_SYSLOG_CONFIG_I' "$c" | head -1 | cut -d: -f1)
log_bad=$(sed -n "${n_log}p" "$c" | sed 's/%VSHD-5-/%VSHD-6-/')
n_wwn=$(grep -n '^    Port WWN is ' "$c" | cut -d: -f1)
wwn_line=$(sed -n "${n_wwn}p" "$c")
n_sw=$(grep -n '^MDS1$' "$c" | tail -1 | cut -d: -f1)
# the transcript lacks the WWN line (the switch prints an extra one) and
# expects one more line after the last (the switch prints it not)
sed -e "${n_boot}s/1000440/2000440/" -e "${n_dev}s/MDS1/MDS9/" -e "${n_log}s/%VSHD-5-/%VSHD-6-/" \
    -e "${n_wwn}d" -e "${n_sw}a\\
MDS2" "$c" > "$dir/bad.txt"
echo 'clock set 10:00:00 1 January 2031' | "$mdsim" --db "$dir/d.db" replay - > /dev/null 2>&1
"$mdsim" --db "$dir/d.db" replay --verify "$dir/bad.txt" > /dev/null 2> "$dir/d.err"
rc=$?
[ $rc = 1 ] || fail "real differences: exit $rc, want 1"
b="$dir/bad.txt"
# after the deleted line, the numbers of the lines below it are one less
cat > "$dir/d.want" <<W
$b:$n_dev: output differs: expected "  Device name: MDS9", got "  Device name: MDS1"
$b:$n_boot: output differs: expected "  bootflash:    2000440 kB", got "  bootflash:    1000440 kB"
$b:$n_wwn: unexpected output "$wwn_line"
$b:$n_sw: output missing: expected "MDS2"
W
grep -v ":$n_log: " "$dir/d.err" > "$dir/d.got"
cmp -s "$dir/d.want" "$dir/d.got" || fail "real differences: $(diff "$dir/d.want" "$dir/d.err")"
grep -q -F "$b:$n_log: output differs: expected \"$log_bad\", got \"2031 Jan  1 10:00:" "$dir/d.err" ||
    fail "the changed log line is not named: $(cat "$dir/d.err")"
[ "$(wc -l < "$dir/d.err")" = 5 ] || fail "real differences: not five messages: $(cat "$dir/d.err")"

[ $fails = 0 ] || exit 1
echo "PASS"
