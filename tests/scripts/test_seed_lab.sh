#!/bin/sh
# examples/seed-lab.txt, the reference lab end to end: it replays without a
# failed line; twice on fresh labs it prints the same transcript (G18); and
# its figures respect the physical bounds (engine-model.md §6 invariants):
# without compression no direction carries more FC payload than 10 Mb/s
# allows (1.10 MiB/s), the netsim queue never exceeds its 250,000 bytes,
# drops add up, compression with the tuner's zeros beats no compression,
# and fcping under the load answers within [200 ms, 1.5 s] (G17). The
# layouts a student puts beside the capture's (fcping, the netsim stats, the
# tuner's counters) are the capture's line for line, figures aside.
mdsim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
for i in 1 2; do
    "$mdsim" --db "$dir/l$i.db" replay "$root/examples/seed-lab.txt" > "$dir/out$i" 2> "$dir/err$i" ||
        fail "replay $i: $(cat "$dir/err$i")"
done
cmp -s "$dir/out1" "$dir/out2" || fail "two replays differ (G18): $(diff "$dir/out1" "$dir/out2" | head -5)"
# the nth counters block of each counters show: field values in order
awk '/^Egress throughput/ { print "egress", $4 } /^Ingress throughput/ { print "ingress", $4 }
     /Max Qlen \(byte\)/ { print "maxq", $NF } /Dropped \(tot\)/ { print "tot", $NF }
     /Dropped \(netsim\)/ { print "netsim", $NF }' "$dir/out1" > "$dir/fig"
# rows 1-4: G14 (two nports), rows 5-8: mode3
head -4 "$dir/fig" | awk '$1 ~ /gress/ && $2 > 1.10 { bad = 1 } END { exit bad }' ||
    fail "a direction above 1.10 MiB/s without compression: $(head -4 "$dir/fig" | tr '\n' ' ')"
awk '$1 == "maxq" && $2 > 250000 { bad = 1 } END { exit bad }' "$dir/fig" || fail "Max Qlen above 250000"
awk '$1 == "tot" { t = $2 } $1 == "netsim" && $2 > t { bad = 1 } END { exit bad }' "$dir/fig" ||
    fail "netsim drops above the total"
plain=$(awk '$1 ~ /gress/ { n++; if (n <= 4) s += $2 } END { print s }' "$dir/fig")
comp=$(awk '$1 ~ /gress/ { n++; if (n > 4 && n <= 8) s += $2 } END { print s }' "$dir/fig")
awk -v p="$plain" -v c="$comp" 'BEGIN { exit !(c > p) }' || fail "mode3 ($comp) not above no compression ($plain)"
grep -q "28 bytes from 22:22:22:22:22:22:22:22" "$dir/out1" || fail "fcping under load got no answer"
# G17: fcping across the loaded tunnel answers within [RTT, 1.5 s]
awk '/^28 bytes from/ { t = $NF == "usec" ? $(NF - 1) : 0; if (t < 200000 || t > 1500000) bad = 1 }
     END { exit bad }' "$dir/out1" || fail "an fcping time outside 200 ms - 1.5 s (G17)"
# the output of the first run of a command, figures masked
layout() {
    awk -v cmd="$2" '$0 == cmd { on = 1; next } on && /^MDS[0-9]+[(#]/ { exit } on' "$1" |
        sed 's/[0-9][0-9]*/N/g; s/N:N:N:N:N:N:N:N/W/g'
}
capture="$root/tests/captures/seed-lab-capture.txt"
for cmd in "MDS1# fcping pwwn 22:22:22:22:22:22:22:22 vsan 100" "MDS1# show ips stats netsim ingress g2/3" \
    "MDS1# show san-ext-tuner interface g2/2 nport pwwN 11:11:11:11:11:11:11:11 vsan 100 counters"; do
    layout "$capture" "$cmd" > "$dir/want"
    layout "$dir/out1" "$cmd" > "$dir/got"
    [ -s "$dir/want" ] && cmp -s "$dir/want" "$dir/got" ||
        fail "'$cmd' not in the capture's layout: $(diff "$dir/want" "$dir/got" | head -6 | tr '\n' ' ')"
done
# README's sample of the demo is what the demo prints, line for line
awk '/^```/ { inb = !inb; next } inb && /^MDS1# show san-ext-tuner interface/ { on = 1 } on && inb' \
    "$root/README.md" | grep -v '^\.\.\.$' > "$dir/readme"
[ -s "$dir/readme" ] || fail "README: no sample of the demo"
while IFS= read -r line; do
    grep -Fxq -- "$line" "$dir/out1" || fail "README shows a line the demo does not print: $line"
done < "$dir/readme"
[ "$fails" -eq 0 ] || exit 1
echo ok
