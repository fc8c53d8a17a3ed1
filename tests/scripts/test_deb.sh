#!/bin/bash
# The Debian package end to end. Built by `make deb`'s script
# (scripts/build-deb.sh) from this source tree in a scratch directory, so
# it is the same whichever build ctest runs this for; lintian finds no
# error in it; it holds the program, the module, the man pages, the
# documentation, the systemd unit and its user, and depends on libssh;
# unpacked with dpkg -x into a scratch root, the program runs there
# (tests/tools/installed_lib.sh).
# usage: test_deb.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
. "$(dirname "$0")/../tools/installed_lib.sh"
# The package is built from the source tree, not from MDSIM: the
# sanitizer round would build and check the very same package again.
if ldd "$mdsim" | grep -q libasan; then
    echo "SKIP: sanitizer build; the package does not depend on it and the normal round checks it"
    exit 77
fi
for tool in cpack dpkg-deb dpkg-shlibdeps lintian scdoc file; do
    command -v $tool > /dev/null || { echo "SKIP: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
src=$(cd "$(dirname "$0")/../.." && pwd)

"$src/scripts/build-deb.sh" "$work/build" "$work/out" > "$work/build.out" 2>&1 ||
    { fail "scripts/build-deb.sh: $(tail -20 "$work/build.out")"; finish; }
deb=$(ls "$work"/out/mdsim_*.deb)

lintian --tag-display-limit 0 "$deb" > "$work/lintian" 2>&1
grep -v '^running with root privileges' "$work/lintian"
grep -q '^E: ' "$work/lintian" && fail "lintian reports errors"

dpkg-deb -c "$deb" | awk '{print $6}' > "$work/contents"
has() { grep -Eq "^\./$1\$" "$work/contents" || fail "the package has no /$1"; }
has usr/bin/mdsim
has 'usr/lib/[^/]+/mdsim/mdsim_ssh\.so'
has usr/share/man/man1/mdsim\.1\.gz
has usr/share/man/man5/mdsim-lab\.5\.gz
for f in copyright changelog\\.gz README\\.md lab-files\\.md examples/labs/san-extension\\.lab; do
    has "usr/share/doc/mdsim/$f"
done
for unit in "$src"/packaging/systemd/*.service; do
    [ -e "$unit" ] || continue
    has "usr/lib/systemd/system/$(basename "$unit")"
    # What its Documentation= names is in the package.
    for doc in $(sed -n 's/^Documentation=//p' "$unit"); do
        case $doc in file:/*) has "${doc#file:/}" ;; esac
    done
done
for users in "$src"/packaging/systemd/*.sysusers; do
    [ -e "$users" ] && has usr/lib/sysusers.d/mdsim\.conf
done
dpkg-deb -f "$deb" Depends | grep -q 'libssh-4' || fail "Depends lacks libssh-4: $(dpkg-deb -f "$deb" Depends)"

dpkg -x "$deb" "$work/root" || fail "dpkg -x"
check_installed "$work/root"
finish
