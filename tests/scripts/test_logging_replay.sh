#!/bin/bash
# The system log is deterministic and durable (docs/logging.md): the same
# script replayed on two fresh labs logs the same lines but for the
# calendar date (virtual time; the calendar starts from the wall clock
# when the lab opens), in the order they were emitted, even within one
# second; and a later process on the lab shows the same logfile.
# usage: test_logging_replay.sh MDSIM
mdsim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cat > "$work/script.txt" <<'SCRIPT'
MDS1# configure terminal
MDS1(config)# switchname A1
A1(config)# end
A1# configure terminal
A1(config)# switchname A2
A2(config)# exit
MDS2# configure terminal
MDS2(config)# end
A2# sleep 3600
A2# configure terminal
A2(config)# logging logfile messages 6
A2(config)# switchname A3
A3(config)# end
MDS2# configure terminal
MDS2(config)# logging logfile messages 4
MDS2(config)# end
A3# show logging logfile
MDS2# show logging logfile
SCRIPT
mask() { sed -E 's/^[0-9]{4} [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} /DATE /'; }
for lab in a b; do
    "$mdsim" --db "$work/$lab.db" replay "$work/script.txt" > "$work/$lab.raw" 2>&1 || fail "replay $lab: $(cat "$work/$lab.raw")"
    grep -E '%[A-Z]+-[0-7]-' "$work/$lab.raw" | mask > "$work/$lab.log"
done
cat > "$work/want" <<'WANT'
DATE A1 %VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on console0
DATE A2 %VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on console0
DATE A3 %VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on console0
DATE MDS2 %VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on console0
WANT
diff "$work/want" "$work/a.log" > /dev/null || fail "the log of a replay: $(diff "$work/want" "$work/a.log")"
diff "$work/a.log" "$work/b.log" > /dev/null || fail "two replays differ: $(diff "$work/a.log" "$work/b.log")"
# the hour slept shows in the calendar, exactly
secs() { date -u -d "$(grep -m1 " $1 %" "$work/a.raw" | awk '{print $2, $3, $1, $4}')" +%s; }
t1=$(secs A2) t2=$(secs A3)
[ -n "$t1" ] && [ -n "$t2" ] && [ $((t2 - t1)) = 3600 ] || fail "not an hour between A2's and A3's: $(cat "$work/a.raw")"
# another process (the owner restarted) shows the same logfile
printf 'show logging logfile\n' | "$mdsim" --db "$work/a.db" replay - > "$work/again.raw" 2>&1
grep -E '%[A-Z]+-[0-7]-' "$work/again.raw" | mask > "$work/again.log"
head -3 "$work/a.log" | diff - "$work/again.log" > /dev/null || fail "after a restart: $(cat "$work/again.raw")"
[ "$fails" -eq 0 ] && echo ok && exit 0
exit 1
