#!/bin/sh
# mdsim --version prints the program's version (CMakeLists.txt's project
# VERSION, its one definition) and the commit it was built from, then the
# NX-OS release it emulates (the one `show version` prints), exits 0 and
# opens no lab; --help mentions it. The commit is the source tree's (it
# names a commit of this repository), "unknown" outside a git checkout
# or in a directory of one that is not its top, and MDSIM_COMMIT when a
# packager gives it (cmake/commit.cmake).
# usage: test_version.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

want=$(sed -n 's/^project(mdsim VERSION \([0-9][0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
[ -n "$want" ] || fail "CMakeLists.txt has no project VERSION"
MDSIM_DB="$dir/lab.db" "$mdsim" --version > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc = 0 ] || fail "--version: exit $rc, $(cat "$dir/err")"
first=$(sed -n 1p "$dir/out")
commit=$(echo "$first" | sed -n "s/^mdsim $want (commit \([0-9a-f]\{4,\}\(-dirty\)\{0,1\}\|unknown\))\$/\1/p")
[ -n "$commit" ] || fail "--version: first line '$first', want 'mdsim $want (commit HASH[-dirty])'"
# Built from this checkout: the commit is one of its own (the tree may
# have moved on since the build, so not necessarily HEAD).
if command -v git > /dev/null && [ "$(git -C "$src" rev-parse --show-toplevel 2> /dev/null)" = "$src" ]; then
    git -C "$src" cat-file -e "${commit%-dirty}^{commit}" 2> /dev/null ||
        fail "--version names commit '$commit', not one of $src"
fi
release=$(echo 'show version' | "$mdsim" --db "$dir/v.db" | sed -n 's/^  system:    version //p')
[ -n "$release" ] || fail "show version names no release"
[ "$(sed -n 2p "$dir/out")" = "emulates a Cisco MDS 9000 switch running NX-OS $release" ] ||
    fail "--version: second line '$(sed -n 2p "$dir/out")', want the release $release"
[ "$(wc -l < "$dir/out")" = 2 ] && [ ! -s "$dir/err" ] || fail "--version printed more: $(cat "$dir/out" "$dir/err")"
[ ! -e "$dir/lab.db" ] || fail "--version opened a lab"
"$mdsim" --help > "$dir/help" 2>&1 || fail "--help: exit $?"
grep -q -- '--version' "$dir/help" || fail "--help does not mention --version"

# The commit file's other cases, from the script the build runs.
commit_of() { # SRC [COMMIT]
    cmake -DSRC="$1" -DOUT="$dir/commit.c" -DGIT="$(command -v git)" -DCOMMIT="$2" -P "$src/cmake/commit.cmake" &&
        sed -n 's/^const char mdsim_commit\[\] = "\(.*\)";$/\1/p' "$dir/commit.c"
}
mkdir "$dir/tree"
[ "$(commit_of "$dir/tree")" = unknown ] || fail "outside git: '$(commit_of "$dir/tree")', want unknown"
[ "$(commit_of "$here")" = unknown ] || fail "a directory inside another checkout: '$(commit_of "$here")', want unknown"
[ "$(commit_of "$dir/tree" 1a2b3c4)" = 1a2b3c4 ] || fail "MDSIM_COMMIT not taken: '$(commit_of "$dir/tree" 1a2b3c4)'"

[ $fails = 0 ] || exit 1
echo "PASS"
