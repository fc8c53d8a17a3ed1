#!/bin/sh
# mdsim(1) stays true to `mdsim --help`: every subcommand the usage lists
# (`lab create`, `class reset`, `check`...) and every option it names is
# in the page's source, man/mdsim.1.scd, in bold as the page writes them;
# and both pages build with scdoc.
# usage: test_manpage.sh MDSIM
mdsim=$1
man=$(cd "$(dirname "$0")/../../man" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$mdsim" --help > "$dir/help" 2>&1 || fail "--help: exit $?"
# A usage line "  lab create FILE      create..." names the subcommand
# "lab create": its lower-case words before any argument or blank run.
sed -n 's/^  \([a-z][a-z-]*\( [a-z][a-z-]*\)*\).*/\1/p' "$dir/help" | sort -u > "$dir/commands"
[ "$(wc -l < "$dir/commands")" -ge 6 ] || fail "found too few subcommands in --help: $(cat "$dir/commands")"
while read -r cmd; do
    grep -qF "*$cmd*" "$man/mdsim.1.scd" || fail "subcommand '$cmd' of --help is not in man/mdsim.1.scd"
done < "$dir/commands"
grep -o -- '--[a-z][a-z-]*' "$dir/help" | sort -u > "$dir/options"
while read -r opt; do
    grep -qF -- "*$opt*" "$man/mdsim.1.scd" || fail "option '$opt' of --help is not in man/mdsim.1.scd"
done < "$dir/options"

if command -v scdoc > /dev/null; then
    for page in mdsim.1 mdsim-lab.5; do
        scdoc < "$man/$page.scd" > "$dir/$page" 2> "$dir/err" || fail "scdoc $page.scd: $(cat "$dir/err")"
    done
else
    echo "note: no scdoc, the pages were not built (scripts/install-deps.sh installs it)"
fi

[ $fails = 0 ] || exit 1
echo "PASS"
