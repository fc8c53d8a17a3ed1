#!/bin/sh
# mdsim --version prints the program's version (CMakeLists.txt's project
# VERSION, its one definition) and the NX-OS release it emulates (the one
# `show version` prints), exits 0 and opens no lab; --help mentions it.
# usage: test_version.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

want=$(sed -n 's/^project(mdsim VERSION \([0-9][0-9.]*\) .*/\1/p' "$here/../../CMakeLists.txt")
[ -n "$want" ] || fail "CMakeLists.txt has no project VERSION"
MDSIM_DB="$dir/lab.db" "$mdsim" --version > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc = 0 ] || fail "--version: exit $rc, $(cat "$dir/err")"
[ "$(sed -n 1p "$dir/out")" = "mdsim $want" ] || fail "--version: first line '$(sed -n 1p "$dir/out")', want 'mdsim $want'"
release=$(echo 'show version' | "$mdsim" --db "$dir/v.db" | sed -n 's/^  system:    version //p')
[ -n "$release" ] || fail "show version names no release"
[ "$(sed -n 2p "$dir/out")" = "emulates a Cisco MDS 9000 switch running NX-OS $release" ] ||
    fail "--version: second line '$(sed -n 2p "$dir/out")', want the release $release"
[ "$(wc -l < "$dir/out")" = 2 ] && [ ! -s "$dir/err" ] || fail "--version printed more: $(cat "$dir/out" "$dir/err")"
[ ! -e "$dir/lab.db" ] || fail "--version opened a lab"
"$mdsim" --help > "$dir/help" 2>&1 || fail "--help: exit $?"
grep -q -- '--version' "$dir/help" || fail "--help does not mention --version"

[ $fails = 0 ] || exit 1
echo "PASS"
