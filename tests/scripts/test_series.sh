#!/bin/bash
# `mdsim replay --series FILE [--plots DIR]` (docs/series.md) on the
# reference lab: the CSV's header and rows, the tunnel's bytes over the
# first tuner minute against the tuner's own bytes (within 5 %) and the
# counters `show san-ext-tuner ... counters` printed (its egress and its
# maximum are seconds of the CSV), two runs byte-identical (CSV, JSON,
# SVG), the replay's output the same with and without --series, the SVG
# well-formed XML, bad paths refused with exit 2. usage: test_series.sh MDSIM
mdsim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
here=$(cd "$(dirname "$0")/../.." && pwd)
seed=$here/examples/seed-lab.txt

"$mdsim" --db "$work/a.db" replay --series "$work/a.csv" --plots "$work/pa" "$seed" > "$work/out.a" 2> "$work/err.a" ||
    fail "replay with --series: exit $? ($(head -3 "$work/err.a"))"
"$mdsim" --db "$work/b.db" replay --series "$work/b.csv" --plots "$work/pb" "$seed" > "$work/out.b" 2>&1 ||
    fail "second replay with --series: exit $?"
"$mdsim" --db "$work/c.db" replay "$seed" > "$work/out.c" 2>&1 || fail "replay without --series: exit $?"
"$mdsim" --db "$work/d.db" replay --series "$work/d.json" "$seed" > "$work/out.d" 2>&1 || fail "replay with JSON: exit $?"
"$mdsim" --db "$work/e.db" replay --series "$work/e.json" "$seed" > /dev/null 2>&1 || fail "second JSON: exit $?"

cmp -s "$work/out.a" "$work/out.c" || fail "the replay's output differs with --series"
cmp -s "$work/out.d" "$work/out.c" || fail "the replay's output differs with --series FILE.json"
cmp -s "$work/a.csv" "$work/b.csv" || fail "two runs gave different CSV"
cmp -s "$work/d.json" "$work/e.json" || fail "two runs gave different JSON"
for f in "$work"/pa/*.svg; do
    cmp -s "$f" "$work/pb/$(basename "$f")" || fail "two runs gave different $(basename "$f")"
done
for f in MDS1-fcip1.svg MDS2-fcip1.svg MDS1-netsim-GigabitEthernet2-3.svg MDS1-netsim-GigabitEthernet2-4.svg plots.gp; do
    [ -s "$work/pa/$f" ] || fail "no plot $f"
done
/usr/bin/python3 - "$work" <<'PY' || fail "CSV, JSON or SVG checks (above)"
import csv, json, glob, sys, xml.dom.minidom
work = sys.argv[1]
bad = 0
def check(ok, msg):
    global bad
    if not ok:
        print("FAIL:", msg); bad += 1
head = open(work + "/a.csv").readline().strip().split(",")
check(head[0] == "lab_time_s", "first column %r" % head[0])
for col in ["MDS1.fcip1.tx_bytes", "MDS1.fcip1.rx_bytes", "MDS1.fcip1.tx_frames", "MDS1.fcip1.cwnd_bytes",
            "MDS1.fcip1.srtt_us", "MDS1.fcip1.retx_segments", "MDS1.netsim.GigabitEthernet2/3.queue_bytes",
            "MDS1.netsim.GigabitEthernet2/3.drop_packets", "MDS1.GigabitEthernet2/2.tx_bytes",
            "MDS1.tuner.11:11:11:11:11:11:11:11.read_ios", "MDS1.tuner.11:11:11:11:11:11:11:11.egress_bytes_per_s",
            "MDS1.tuner.11:11:11:11:11:11:11:11.read_rt_avg_us"]:
    check(col in head, "no column " + col)
rows = list(csv.DictReader(open(work + "/a.csv")))
check(180 <= len(rows) <= 200, "%d rows, expected about 190" % len(rows))
check([int(r["lab_time_s"]) for r in rows] == list(range(1, len(rows) + 1)), "not one row per second")
for r in rows:
    for k, v in r.items():
        check(v == "" or v.lstrip("-").isdigit(), "not an integer: %s=%r" % (k, v))
# The first tuner minute: from the first second MDS1's N port completed I/Os.
np1 = "MDS1.tuner.11:11:11:11:11:11:11:11."
first = next(i for i, r in enumerate(rows) if int(r[np1 + "read_ios"] or 0) > 0)
minute = rows[first:first + 60]
tunnel = sum(int(r["MDS1.fcip1.tx_bytes"]) for r in minute)
tuner = sum(int(r[np1 + "egress_bytes_per_s"]) for r in minute)
check(tuner > 0 and abs(tunnel - tuner) <= 0.05 * tuner,
      "MDS1.fcip1 sent %d bytes in the first tuner minute, its N port %d" % (tunnel, tuner))
# `show ... counters` after that minute: its egress second and its maximum are rows of the CSV.
out = open(work + "/out.a").read().split("\n")
line = next(l for l in out if l.startswith("Egress throughput"))
now, mx = [float(x) for x in line.replace("(Max -", "").replace("MBs/sec", "").replace(")", "").split(":")[1].split()]
mib = [round(int(r[np1 + "egress_bytes_per_s"]) / 2**20, 2) for r in rows[first:first + 62]]
check(now in mib, "show's egress %.2f MB/s is no second of the CSV" % now)
check(abs(max(mib[:61]) - mx) < 0.006, "show's egress max %.2f, the CSV's %.2f" % (mx, max(mib[:61])))
doc = json.load(open(work + "/d.json"))
check(len(doc["lab_time_s"]) == len(rows), "JSON rows %d" % len(doc["lab_time_s"]))
names = [s["name"] for s in doc["series"]]
check(names == head[1:], "JSON series differ from the CSV's columns")
for f in glob.glob(work + "/pa/*.svg"):
    try:
        xml.dom.minidom.parse(f)
    except Exception as e:
        check(False, "%s: %s" % (f, e))
sys.exit(1 if bad else 0)
PY

# Bad paths: a clear message, exit 2, nothing run.
"$mdsim" --db "$work/f.db" replay --series "$work/no/such/dir/x.csv" "$seed" > "$work/out.f" 2> "$work/err.f"
rc=$?
[ $rc = 2 ] || fail "--series into a missing directory: exit $rc, expected 2"
grep -q "cannot write $work/no/such/dir/x.csv" "$work/err.f" || fail "no clear error: $(cat "$work/err.f")"
[ -s "$work/out.f" ] && fail "a replay ran although --series cannot be written"
touch "$work/afile"
"$mdsim" --db "$work/g.db" replay --series "$work/g.csv" --plots "$work/afile" "$seed" > /dev/null 2> "$work/err.g"
rc=$?
[ $rc = 2 ] || fail "--plots onto a file: exit $rc, expected 2"
grep -q "afile" "$work/err.g" || fail "no clear error for --plots: $(cat "$work/err.g")"
"$mdsim" --db "$work/h.db" replay --plots "$work/ph" "$seed" > /dev/null 2> "$work/err.h"
rc=$?
[ $rc = 2 ] || fail "--plots without --series: exit $rc, expected 2"
grep -q -- "--plots needs --series" "$work/err.h" || fail "no clear error: $(head -1 "$work/err.h")"
"$mdsim" --db "$work/i.db" replay --series "$work/i.csv" --pcap "$work/no/such/dir/i.pcapng" "$seed" \
    > /dev/null 2> "$work/err.i" && fail "a replay ran although --pcap cannot be written"
[ -e "$work/i.csv" ] && fail "--series left a file although the replay did not run"

[ $fails = 0 ] && echo "ok" || exit 1
