#!/bin/sh
# examples/labs/three-switch-fabric.lab (docs/fspf.md): FSPF routes a
# triangle of FCIP links by cost. The golden transcript
# fspf_three_switch.txt replays with --verify on a lab created from the
# file: MDS1 reaches MDS3 through MDS2 (its link to MDS3 carries the
# echoes), a configured cost and then the middle link shut move the path,
# and with no link left the trace times out.
# usage: test_fspf_lab.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$mdsim" --db "$dir/lab.db" lab create "$root/examples/labs/three-switch-fabric.lab" > /dev/null ||
    { echo "FAIL: lab create"; exit 1; }
"$mdsim" --db "$dir/lab.db" replay --verify "$here/fspf_three_switch.txt" > "$dir/out" 2> "$dir/err" ||
    { echo "FAIL: replay --verify:"; head -20 "$dir/err"; exit 1; }
echo ok
