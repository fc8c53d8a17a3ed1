#!/bin/bash
# The time series of a served lab (docs/series.md): `mdsim serve` records
# from its start; the reference lab replayed into it by an attached
# replay, `mdsim lab export --series F.csv --plots DIR` then gives the
# same CSV byte for byte as `mdsim replay --series` of the same script on
# a lab of its own (the sampler changed nothing, and served or not the
# lab ran the same events); JSON too. Over telnet: `series export` to
# bootflash: (it shows in `dir bootflash:`), hostile names, a full
# bootflash; `series stop` keeps what was recorded. An unserved lab has
# nothing recorded: exit 1 with a message. usage: test_served_series.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
seed=$root/examples/seed-lab.txt
db="$work/lab.db"

"$mdsim" --db "$work/own.db" replay --series "$work/own.csv" "$seed" > "$work/own.out" 2>&1 ||
    fail "replay --series on its own lab: exit $?"
"$mdsim" --db "$work/own.db" lab export --series "$work/none.csv" > "$work/none.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "recorded no time series" "$work/none.out" && [ ! -e "$work/none.csv" ] ||
    fail "lab export of an unserved lab: exit $rc, $(cat "$work/none.out")"
"$mdsim" --db "$work/own.db" lab export > "$work/usage.out" 2>&1
[ $? = 2 ] && grep -q "needs --series" "$work/usage.out" || fail "lab export without --series: $(head -2 "$work/usage.out")"

serve_start "$db" --speed 0 || { fail "serve"; finish; }
"$mdsim" --db "$db" replay "$seed" > "$work/served.out" 2> "$work/served.err" ||
    fail "attached replay: $(head -3 "$work/served.err")"
(cd "$work" && "$mdsim" --db "$db" lab export --series served.csv --plots plots) > "$work/exp.out" 2>&1 ||
    fail "lab export of the served lab: $(cat "$work/exp.out")"
"$mdsim" --db "$db" lab export --series "$work/served.json" > "$work/exp.out" 2>&1 || fail "JSON export: $(cat "$work/exp.out")"
cmp -s "$work/own.csv" "$work/served.csv" ||
    fail "the served lab's CSV differs from replay --series: $(diff "$work/own.csv" "$work/served.csv" | head -5)"
[ -s "$work/plots/MDS1-fcip1.svg" ] && [ -s "$work/plots/plots.gp" ] || fail "no plots from lab export"
/usr/bin/python3 - "$work" <<'PY' || fail "CSV or JSON checks (above)"
import csv, json, sys
work = sys.argv[1]
rows = list(csv.DictReader(open(work + "/served.csv")))
assert len(rows) >= 180, f"{len(rows)} rows"
assert [int(r["lab_time_s"]) for r in rows] == list(range(1, len(rows) + 1)), "seconds not 1, 2, 3..."
tx = sum(int(r["MDS1.fcip1.tx_bytes"] or 0) for r in rows)
assert tx > 10_000_000, f"MDS1.fcip1.tx_bytes totals {tx}"
doc = json.load(open(work + "/served.json"))
assert doc["first_index"] == 0 and len(doc["lab_time_s"]) == len(rows), "JSON rows"
col = next(s for s in doc["series"] if s["name"] == "MDS1.fcip1.tx_bytes")
assert sum(v or 0 for v in col["values"]) == tx, "JSON and CSV disagree"
PY

# over telnet: bootflash, hostile names, a full bootflash, stop
long=$(printf 'n%.0s' $(seq 70))
{
    echo "@timeout 60"
    echo "series export bootflash:s.csv"
    echo "series export bootflash:../x"
    echo "series export bootflash:$long"
    echo "series export bootflash:"
    echo "series export volatile:s.csv"
    for i in $(seq 63); do echo "copy bootflash:s.csv bootflash:f$i"; done
    echo "series export bootflash:one-more.json"
    echo "series export bootflash:s.csv"
    echo "dir bootflash: | include s.csv|one-more"
    echo "series stop"
    echo "sleep 5"
    echo "show series summary"
} > "$work/t"
timeout 90 "$client" 127.0.0.1 "$TP" < "$work/t" > "$work/t.out" 2>&1 || fail "telnet: $(tail -5 "$work/t.out")"
grep -q "samples of .* series written to bootflash:s.csv" "$work/t.out" || fail "series export: $(head -5 "$work/t.out")"
[ "$(grep -c '% Invalid file name' "$work/t.out")" = 4 ] || fail "hostile names: $(grep -A1 'export' "$work/t.out" | head -20)"
grep -q "% bootflash: is full (limit is 64 files)" "$work/t.out" || fail "full bootflash: $(grep -A1 one-more "$work/t.out")"
[ "$(grep -c 'written to bootflash:s.csv' "$work/t.out")" = 2 ] || fail "replacing s.csv on a full bootflash"
grep -Eq '^ +[0-9]+ .* s\.csv' "$work/t.out" && ! grep -Eq '^ +[0-9]+ .* one-more' "$work/t.out" ||
    fail "dir bootflash: $(grep -A3 'dir bootflash' "$work/t.out")"
grep -q "recording\|stopped" "$work/t.out" && grep -q "stopped, every 1 s" "$work/t.out" ||
    fail "series stop: $(grep -A4 'show series' "$work/t.out")"
"$mdsim" --db "$db" lab export --series "$work/after.csv" > "$work/exp.out" 2>&1 || fail "export after stop: $(cat "$work/exp.out")"
[ "$(wc -l < "$work/after.csv")" -ge 181 ] || fail "series stop lost the rows: $(wc -l < "$work/after.csv")"
serve_stop > /dev/null || fail "serve did not stop cleanly"
finish
