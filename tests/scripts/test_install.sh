#!/bin/bash
# `cmake --install` of the build that made MDSIM into a scratch root
# (DESTDIR, prefix /usr): the program, its SSH module, the man pages, the
# documentation and examples, the systemd unit and its user land in their
# places, and the installed program runs there with nothing beside it
# (tests/tools/installed_lib.sh).
# usage: test_install.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
. "$(dirname "$0")/../tools/installed_lib.sh"
build=$(cd "$(dirname "$mdsim")" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
root=$work/root

DESTDIR=$root cmake --install "$build" --prefix /usr > "$work/install.out" 2>&1 ||
    { fail "cmake --install: $(tail -5 "$work/install.out")"; finish; }
have() { [ -f "$root/$1" ] || fail "not installed: /$1"; }
have usr/bin/mdsim
for f in README.md copyright changelog.gz lab-files.md examples/labs/san-extension.lab; do
    have "usr/share/doc/mdsim/$f"
done
gzip -t "$root/usr/share/doc/mdsim/changelog.gz" || fail "changelog.gz is no gzip file"
if command -v scdoc > /dev/null; then # the build makes the man pages when it finds scdoc
    for page in man1/mdsim.1.gz man5/mdsim-lab.5.gz; do
        have "usr/share/man/$page"
        gzip -t "$root/usr/share/man/$page" || fail "$page is no gzip file"
    done
fi
for unit in "$src"/packaging/systemd/*.service; do
    [ -e "$unit" ] && have "usr/lib/systemd/system/$(basename "$unit")"
done
for users in "$src"/packaging/systemd/*.sysusers; do
    [ -e "$users" ] && have usr/lib/sysusers.d/mdsim.conf
done

check_installed "$root"
finish
