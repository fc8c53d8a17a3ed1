#!/bin/bash
# ethanalyzer on a served lab (docs/capture.md): the reference lab's
# first part replayed into `mdsim serve` by an attached replay, then over
# telnet `ethanalyzer local interface gigabitethernet 2/2
# limit-captured-frames 40 write bootflash:cap.pcapng`: 40 frames, the
# file in `dir bootflash:`, Debian's tshark reads it (one interface named
# after the port, FCIP on 3225), and its MD5 is that of the same capture
# in a replay on a lab of its own (same script, same bytes). Hostile
# input: bad names, a port that does not exist, frames out of range, a
# capture while `replay --pcap` holds the tap. usage: test_served_capture.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v tshark > /dev/null || { echo "SKIP: no tshark"; exit 77; }
db="$work/lab.db"
sed -n '1,/^MDS1# sleep 60$/p' "$root/examples/seed-lab.txt" > "$work/part.txt"
cap="ethanalyzer local interface gigabitethernet 2/2 limit-captured-frames 40 write bootflash:cap.pcapng"

{ cat "$work/part.txt"; echo "MDS1# $cap"; echo "MDS1# show file bootflash:cap.pcapng md5sum"; } > "$work/own.txt"
"$mdsim" --db "$work/own.db" replay "$work/own.txt" > "$work/own.out" 2>&1 || fail "replay on its own lab: exit $?"
own_md5=$(grep -A1 'md5sum$' "$work/own.out" | tail -1)
grep -q "^40 packets captured" "$work/own.out" || fail "own replay: $(tail -5 "$work/own.out")"

serve_start "$db" --speed 0 || { fail "serve"; finish; }
"$mdsim" --db "$db" replay "$work/part.txt" > /dev/null 2> "$work/part.err" || fail "attached replay: $(head -3 "$work/part.err")"
long=$(printf 'n%.0s' $(seq 70))
cat > "$work/t" <<SCRIPT
@timeout 60
$cap
dir bootflash:
show file bootflash:cap.pcapng md5sum
ethanalyzer local interface gigabitethernet 2/2 write bootflash:../x
ethanalyzer local interface gigabitethernet 2/2 write bootflash:$long
ethanalyzer local interface gigabitethernet 2/2 write slot0:x
ethanalyzer local interface gigabitethernet 9/9 write bootflash:x
ethanalyzer local interface gigabitethernet 2/2 limit-captured-frames 0 write bootflash:x
ethanalyzer local interface gigabitethernet 2/2 limit-captured-frames 100001 write bootflash:x
SCRIPT
timeout 90 "$client" 127.0.0.1 "$TP" < "$work/t" > "$work/t.out" 2>&1 || fail "telnet: $(tail -5 "$work/t.out")"
grep -q "^40 packets captured" "$work/t.out" || fail "served ethanalyzer: $(head -5 "$work/t.out")"
grep -Eq '^ +[0-9]+ .* cap\.pcapng$' "$work/t.out" || fail "not in dir bootflash:"
served_md5=$(grep -A1 'md5sum$' "$work/t.out" | tail -1)
[ -n "$own_md5" ] && [ "$own_md5" = "$served_md5" ] || fail "served capture $served_md5, own lab's $own_md5"
[ "$(grep -c '% Invalid file name' "$work/t.out")" = 3 ] || fail "hostile names: $(cat "$work/t.out")"
grep -q "% Invalid interface GigabitEthernet9/9" "$work/t.out" || fail "a missing port"
[ "$(grep -c "Invalid\|Invalid range\|% " "$work/t.out")" -ge 6 ] || fail "frames out of range accepted"
serve_stop > /dev/null || fail "serve did not stop cleanly"
/usr/bin/python3 - "$db" "$work/cap.pcapng" <<'PY' || fail "cannot take the file out of the lab"
import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute("select bytes from bootflash where name = 'cap.pcapng'").fetchone()
open(sys.argv[2], "wb").write(row[0])
PY
tshark -r "$work/cap.pcapng" -T fields -e frame.interface_name -e tcp.port 2> /dev/null > "$work/fields"
[ "$(wc -l < "$work/fields")" = 40 ] || fail "tshark read $(wc -l < "$work/fields") frames"
[ "$(cut -f1 "$work/fields" | sort -u)" = "MDS1 GigabitEthernet2/2" ] || fail "interfaces: $(cut -f1 "$work/fields" | sort -u)"
grep -q 3225 "$work/fields" || fail "no FCIP (3225) in the capture"

# the tap taken by replay --pcap: ethanalyzer refuses
printf 'MDS1# %s\n' "$cap" > "$work/busy.txt"
"$mdsim" --db "$work/busy.db" replay --pcap "$work/busy.pcapng" "$work/busy.txt" > "$work/busy.out" 2>&1
grep -q "A capture is already running" "$work/busy.out" || fail "ethanalyzer beside --pcap: $(cat "$work/busy.out")"
finish
