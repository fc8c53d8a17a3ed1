#!/bin/bash
# mdsim check (docs/check.md): the reference lab's check passes on a lab
# that replayed examples/seed-lab.txt and fails on a fresh one with the
# lines expected; every exercise's fixed.check fails on its staged fault
# and passes once fixed; JSON and CSV parse and hold the same results; bad
# check files are refused at their line with exit 2; the lab checked is not
# written (its bytes and SQLite's data_version), served or not; a served
# lab is checked while it runs; --class checks every student of a roster.
# usage: test_check.sh MDSIM
if [ $# -ne 1 ]; then
    echo "usage: $0 MDSIM" >&2
    exit 2
fi
mdsim=$1
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no $py (JSON and CSV are read with it)"; exit 77; }
root=$(cd "$(dirname "$0")/../.." && pwd)
seedcheck="$root/examples/checks/seed-lab.check"
ex="$root/examples/exercises"
work=$(mktemp -d)
spid=
stop_serve() {
    [ -n "$spid" ] || return 0
    kill -TERM "$spid" 2> /dev/null
    wait "$spid"
    local rc=$?
    spid=
    return $rc
}
trap 'stop_serve; rm -rf "$work"' EXIT
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# replay DB FILE...: false (said) when a line failed
replay() {
    local db=$1
    shift
    "$mdsim" --db "$db" replay "$@" > "$work/replay.out" 2> "$work/replay.err" ||
        { fail "replay $*: $(head -c 2000 "$work/replay.err")"; return 1; }
}

# check WANT_RC CHECKFILE ARGS...: runs mdsim check, output in $work/out, err
check() {
    local want=$1
    shift
    "$mdsim" check "$@" > "$work/out" 2> "$work/err"
    local rc=$?
    [ $rc -eq "$want" ] || fail "check $*: exit $rc, not $want: $(head -c 3000 "$work/out" "$work/err")"
}

# 1. The reference lab: solution and fresh lab
replay "$work/seed.db" "$root/examples/seed-lab.txt"
check 0 "$seedcheck" --db "$work/seed.db"
[ -s "$work/err" ] && fail "check said on stderr: $(cat "$work/err")"
items=$(grep -c . "$work/out")
[ "$items" -ge 20 ] || fail "only $items lines for the seed lab: $(cat "$work/out")"
grep -v '^seed  *MDS[12]  *PASS  ' "$work/out" && fail "lines that are not seed's passes (above)"
grep -q '^seed  *MDS1  *PASS  config has: interface fcip1 / use-profile 1$' "$work/out" ||
    fail "no pass for fcip1's use-profile: $(cat "$work/out")"
"$mdsim" --db "$work/fresh.db" lab list > /dev/null 2>&1 || fail "lab list on a new lab"
check 1 "$seedcheck" --db "$work/fresh.db"
[ "$(grep -c . "$work/out")" -eq "$items" ] || fail "a fresh lab gave another number of lines: $(cat "$work/out")"
for want in \
    'fresh +MDS1 +FAIL +config has: interface fcip1 / use-profile 1: not in running-config$' \
    'fresh +MDS1 +PASS +config lacks: interface fcip1 / passive-mode$' \
    'fresh +MDS1 +FAIL +show interface fcip1: contains "fcip1 is trunking": the command failed: % Invalid command' \
    'fresh +MDS1 +FAIL +ping 192.168.10.2 count 3: the command failed: ping: sendto 192.168.10.2' \
    'fresh +MDS2 +FAIL +fcping pwwn 11:11:11:11:11:11:11:11 vsan 100 count 3: the command failed: % vsan 100 is not configured'; do
    grep -Eq "^$want" "$work/out" || fail "fresh lab: no line like '$want': $(cat "$work/out")"
done
# The default lab is $MDSIM_DB's, named after its file
MDSIM_DB="$work/seed.db" "$mdsim" check "$seedcheck" > "$work/out" 2>&1 || fail "check on \$MDSIM_DB: $(cat "$work/out")"
grep -q '^seed ' "$work/out" || fail "check on \$MDSIM_DB: $(head -3 "$work/out")"

# 2. Configuration, not text; what a show holds; failures say why
cat > "$work/forms.check" <<'EOF'
wait 10
switch mds1
has
  INT FCIP1
     use-prof 01
     peer-info ipaddr 192.168.010.2
  vsan data
    vsan 100
lacks
  int fcip1
    use-profile 2
  feature iscsi
show int fcip1
  counter 2..2 [0-9]+ Active TCP connections
  counter ..1 [0-9]+ Active TCP connections
  lacks Isolation
  lacks trunking
  matches ^fcip1 is trunking$
show san-ext-tuner interface g2/2 nport pwwn 11:11:11:11:11:11:11:11 vsan 100 counters
  contains Reads : 100%
switch MDS3
show clock
  contains UTC
EOF
check 1 "$work/forms.check" --db "$work/seed.db"
for want in \
    'mds1 +PASS +config has: INT FCIP1 / use-prof 01$' \
    'mds1 +PASS +config has: INT FCIP1 / peer-info ipaddr 192.168.010.2$' \
    'mds1 +PASS +config has: vsan data / vsan 100$' \
    'mds1 +PASS +config lacks: int fcip1 / use-profile 2$' \
    'mds1 +FAIL +config lacks: feature iscsi: in running-config$' \
    'mds1 +PASS +show int fcip1: counter 2..2 ' \
    'mds1 +FAIL +show int fcip1: counter ..1 "\[0-9\]\+ Active TCP connections": 2 is outside ..1' \
    'mds1 +PASS +show int fcip1: lacks "Isolation"$' \
    'mds1 +FAIL +show int fcip1: lacks "trunking": output has "trunking": fcip1 is trunking' \
    'mds1 +PASS +show int fcip1: matches ' \
    'mds1 +PASS +show san-ext-tuner .* contains "Reads : 100%"$' \
    'MDS3 +FAIL +show clock: contains "UTC": no switch MDS3 in this lab$'; do
    grep -Eq "^seed +$want" "$work/out" || fail "no line like '$want': $(cat "$work/out")"
done

# 3. JSON and CSV: the same results, in files or on stdout
check 1 "$seedcheck" --db "$work/fresh.db" --json "$work/r.json" --csv "$work/r.csv"
"$py" - "$work/r.json" "$work/r.csv" "$work/out" <<'EOF' || fail "JSON and CSV (above)"
import csv, json, sys
j = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2], newline='')))
lines = open(sys.argv[3]).read().splitlines()
assert j["check"].endswith("seed-lab.check"), j["check"]
assert len(j["results"]) == len(rows) == len(lines) == j["total"], (len(j["results"]), len(rows), len(lines))
assert j["failed"] == sum(r["result"] == "FAIL" for r in j["results"]) > 0
for r, c, l in zip(j["results"], rows, lines):
    assert (r["student"], r["switch"], str(r["line"]), r["item"], r["result"], r["why"]) == \
        (c["student"], c["switch"], c["line"], c["item"], c["result"], c["why"]), (r, c)
    assert r["item"] in l and r["result"] in l and r["why"] in l, (r, l)
EOF
"$mdsim" check "$seedcheck" --db "$work/seed.db" --json - 2> "$work/err" |
    "$py" -c 'import json, sys; d = json.load(sys.stdin); assert d["failed"] == 0 and d["total"] > 20, d' ||
    fail "--json -: $(cat "$work/err")"
"$mdsim" check "$seedcheck" --db "$work/seed.db" --csv - 2> "$work/err" |
    "$py" -c 'import csv, sys; r = list(csv.DictReader(sys.stdin)); assert r and all(x["result"] == "PASS" for x in r), r' ||
    fail "--csv -: $(cat "$work/err")"

# 4. Bad check files and usage: file:line: message, exit 2
printf 'switch MDS1\nhas\n  interface fcip1\n    use-profle 1\n' > "$work/bad1.check"
printf 'switch MDS1\nshow interface fcip1\n  counter 5..2 x\n' > "$work/bad2.check"
printf 'switch MDS1\nconfigure terminal\n' > "$work/bad3.check"
printf 'has\n  feature fcip\n' > "$work/bad4.check"
for b in "bad1.check:4: % Invalid command at '^' marker." "bad2.check:3: the range 5..2 is empty" \
    "bad3.check:2: 'configure terminal' is not for a check" "bad4.check:1: has before any switch line"; do
    f=${b%%:*}
    check 2 "$work/$f" --db "$work/seed.db"
    [ -s "$work/out" ] && fail "$f: output on stdout: $(cat "$work/out")"
    grep -qF "$work/$b" "$work/err" || fail "$f: not '$b': $(cat "$work/err")"
done
check 2 "$seedcheck" --db "$work/seed.db" --class "$work"
check 2 --db "$work/seed.db"
check 2 "$seedcheck" --db "$work/seed.db" --json - --csv -
check 2 "$work/none.check" --db "$work/seed.db"

# 5. Nothing written to the lab checked: its bytes, and SQLite's
#    data_version seen by a connection held open across the check
cp "$work/seed.db" "$work/seed.copy"
"$py" - "$mdsim" "$seedcheck" "$work/seed.db" <<'EOF' || fail "the lab changed under the check (above)"
import sqlite3, subprocess, sys
mdsim, check, db = sys.argv[1:]
c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
before = c.execute("PRAGMA data_version").fetchone()[0]
r = subprocess.run([mdsim, "check", check, "--db", db], capture_output=True)
after = c.execute("PRAGMA data_version").fetchone()[0]
assert r.returncode == 0, r
assert before == after, (before, after)
EOF
cmp -s "$work/seed.db" "$work/seed.copy" || fail "the lab file's bytes changed under the check"

# 6. A served lab, checked while it runs (real time) and left as it was
replay "$work/served.db" "$root/examples/seed-lab.txt"
: > "$work/serve.out"
"$mdsim" --db "$work/served.db" serve --telnet-port 0 --ssh-port 0 > "$work/serve.out" 2>&1 &
spid=$!
for _ in $(seq 200); do
    grep -q '^mdsim serve: ready' "$work/serve.out" && break
    kill -0 "$spid" 2> /dev/null || break
    sleep 0.1
done
if grep -q '^mdsim serve: ready' "$work/serve.out"; then
    printf 'MDS1# show running-config\nMDS2# show running-config\n' > "$work/show.txt"
    replay "$work/served.db" "$work/show.txt" && grep -v '^!Time' "$work/replay.out" > "$work/conf.before"
    check 0 "$seedcheck" --db "$work/served.db"
    [ "$(grep -c ' PASS ' "$work/out")" -eq "$items" ] || fail "served lab: $(cat "$work/out" "$work/err")"
    replay "$work/served.db" "$work/show.txt" && grep -v '^!Time' "$work/replay.out" > "$work/conf.after"
    cmp -s "$work/conf.before" "$work/conf.after" || fail "the served lab's configuration changed under the check"
    kill -0 "$spid" 2> /dev/null || fail "serve went away: $(cat "$work/serve.out")"
    stop_serve || fail "serve did not stop cleanly: $(cat "$work/serve.out")"
else
    fail "serve did not start: $(cat "$work/serve.out")"
fi

# 7. Every exercise: its check fails on the fault, passes once fixed
n=0
for d in "$ex"/[0-9]*/; do
    d=${d%/}
    name=$(basename "$d")
    n=$((n + 1))
    [ -f "$d/fixed.check" ] || { fail "$name: no fixed.check"; continue; }
    rm -f "$work"/ex.db*
    base=$ex/base.txt
    if [ -f "$d/lab.lab" ]; then # an exercise on a lab of its own
        base=$d/base.txt
        "$mdsim" --db "$work/ex.db" lab create "$d/lab.lab" > /dev/null 2>&1 || { fail "$name: lab create"; continue; }
    fi
    replay "$work/ex.db" "$base" "$d/stage.txt" || continue
    check 1 "$d/fixed.check" --db "$work/ex.db"
    grep -q ' FAIL ' "$work/out" || fail "$name: nothing failed on the fault: $(cat "$work/out")"
    replay "$work/ex.db" "$d/fix.txt" || continue
    check 0 "$d/fixed.check" --db "$work/ex.db"
done
[ "$n" -ge 8 ] || fail "$n exercises in $ex, fewer than 8"

# 8. A class: every student of the roster, in its order, once each
mkdir "$work/class"
cp "$work/seed.copy" "$work/class/student01.db"
cp "$work/fresh.db" "$work/class/student02.db"
cat > "$work/class/roster.csv" <<'EOF'
student,switch,telnet_port,ssh_port,user,password
student01,MDS1,20001,21001,student01,pw1
student01,MDS2,20002,21002,student01,pw1
student02,MDS1,20003,21003,student02,pw2
student02,MDS2,20004,21004,student02,pw2
student03,MDS1,20005,21005,student03,pw3
student03,MDS2,20006,21006,student03,pw3
EOF
check 1 "$seedcheck" --class "$work/class" --csv "$work/class.csv"
"$py" - "$work/class.csv" "$items" <<'EOF' || fail "the class's results (above)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
items = int(sys.argv[2])
order = []
for r in rows:
    if r["student"] not in order:
        order.append(r["student"])
assert order == ["student01", "student02", "student03"], order
by = {s: [r for r in rows if r["student"] == s] for s in order}
assert all(len(v) == items for v in by.values()), {s: len(v) for s, v in by.items()}
assert all(r["result"] == "PASS" for r in by["student01"])
assert any(r["result"] == "FAIL" for r in by["student02"])
assert all(r["result"] == "FAIL" and "student03.db" in r["why"] for r in by["student03"]), by["student03"][0]
EOF
printf 'student,switch\n' > "$work/class/roster.csv"
check 2 "$seedcheck" --class "$work/class"
grep -q 'roster.csv:1: ' "$work/err" || fail "a bad roster: $(cat "$work/err")"

cat "$work"/sanitizer* 2> /dev/null && fail "sanitizer reports"
[ "$fails" -eq 0 ] || exit 1
echo "ok: $n exercise checks"
