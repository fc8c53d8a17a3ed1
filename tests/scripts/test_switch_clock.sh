#!/bin/sh
# Each switch has its own clock (docs/lab-clock.md): `clock set` on MDS2
# moves MDS2's clock only, and what MDS2 prints (show clock, its log's
# stamps) reads it; reload and reopening the lab keep it (the hardware
# clock); it is in no running-config. A lab made before schema 023 had
# one offset for the whole lab: after the migration, each switch keeps
# it. Times are pinned here by grep, as replay --verify masks them.
# usage: test_switch_clock.sh MDSIM
mdsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
has() { grep -q "$1" "$dir/out" || fail "$2: no '$1' in: $(cat "$dir/out")"; }

"$mdsim" --db "$dir/lab.db" replay - > "$dir/out" 2>&1 <<'T' || fail "replay: $(cat "$dir/out")"
MDS1# clock set 10:00:00 1 Jan 2026
MDS2# clock set 11:30:00 2 Feb 2027
MDS1# show clock
MDS2# show clock
MDS2# configure terminal
MDS2(config)# interface GigabitEthernet2/2
MDS2(config-if)# no shutdown
MDS2(config-if)# end
MDS1# sleep 5
MDS2# configure terminal
MDS2(config)# interface GigabitEthernet2/2
MDS2(config-if)# shutdown
MDS2(config-if)# end
MDS1# sleep 1
MDS2# show logging logfile | include GigabitEthernet2/2
MDS2# reload
MDS2# show clock
MDS2# show running-config | include clock
MDS2# show running-config all | include clock
T
sed -n '/^MDS1# show clock/{n;p}' "$dir/out" | grep -q '^10:00:00.000 UTC Thu Jan 01 2026$' ||
    fail "MDS1 moved by MDS2's clock set: $(cat "$dir/out")"
has '^11:30:00.000 UTC Tue Feb 02 2027$' "MDS2's own clock"
has '^2027 Feb  2 11:30:05 MDS2 %PORT-5-IF_DOWN_ADMIN_DOWN' "MDS2's log on its clock"
has '^11:30:06.000 UTC Tue Feb 02 2027$' "MDS2's clock after a reload"
grep -q '^clock' "$dir/out" && fail "a clock in the running-config: $(cat "$dir/out")"

# a new process: the offsets come from the store
"$mdsim" --db "$dir/lab.db" replay - > "$dir/out" 2>&1 <<'T' || fail "second replay: $(cat "$dir/out")"
MDS1# show clock
MDS2# show clock
T
has ' Thu Jan 01 2026$' "MDS1's clock reopened"
has ' Tue Feb 02 2027$' "MDS2's clock reopened"

# a lab of schema 022 whose clock was set (lab-wide, 1000 days ahead)
if command -v sqlite3 > /dev/null; then
    "$mdsim" --db "$dir/old.db" replay - > /dev/null 2>&1 <<'T'
MDS1# show clock
T
    sqlite3 "$dir/old.db" "DROP TABLE switch_clock; INSERT INTO lab_meta VALUES ('clock_delta', '86400000');
        PRAGMA user_version = 22;" || fail "cannot make a schema 022 lab"
    now=$(date -u +%s)
    "$mdsim" --db "$dir/old.db" replay - > "$dir/out" 2>&1 <<'T' || fail "old lab: $(cat "$dir/out")"
MDS1# show clock
MDS2# show clock
T
    want=$(date -u -d "@$((now + 86400000))" +%Y)
    [ "$(grep -c " $want\$" "$dir/out")" = 2 ] || fail "the lab-wide offset not on both switches ($want): $(cat "$dir/out")"
    [ "$(sqlite3 "$dir/old.db" "SELECT count(*) FROM lab_meta WHERE key = 'clock_delta'")" = 0 ] ||
        fail "clock_delta left in lab_meta"
fi
[ "$fails" -eq 0 ] || exit 1
echo "ok"
