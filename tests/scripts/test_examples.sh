#!/bin/sh
# Every example script replays without a failed line, each on a fresh lab
# (the default one, or the lab file its `! lab:` line names),
# and every example lab file creates a lab.
mdsim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
for f in "$root"/examples/*.txt "$root"/examples/scripts/*.txt; do
    rm -f "$dir"/lab.db*
    # a script that needs its own lab names it: `! lab: examples/labs/X.lab`
    lab=$(sed -n 's/^! lab: \([^ ]*\)$/\1/p' "$f" | head -1)
    if [ -n "$lab" ] && ! "$mdsim" --db "$dir/lab.db" lab create "$root/$lab" > /dev/null 2> "$dir/err"; then
        echo "FAIL: $f: lab create $lab: $(cat "$dir/err")"
        fails=$((fails + 1))
        continue
    fi
    "$mdsim" --db "$dir/lab.db" replay "$f" > "$dir/out" 2> "$dir/err" ||
        { echo "FAIL: $f: $(cat "$dir/err")"; fails=$((fails + 1)); }
done
for f in "$root"/examples/labs/*.lab; do
    rm -f "$dir"/new.db*
    "$mdsim" --db "$dir/new.db" lab create "$f" > /dev/null 2> "$dir/err" ||
        { echo "FAIL: $f: $(cat "$dir/err")"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] || exit 1
echo ok
