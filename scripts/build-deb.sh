#!/bin/sh
# Builds the Debian package (docs/packaging.md): the program, its SSH
# module and the man pages in a release build configured for /usr, packed
# by CPack (packaging/deb.cmake). `make deb` runs it; so does
# tests/scripts/test_deb.sh, in a scratch directory.
# usage: scripts/build-deb.sh BUILD_DIR OUT_DIR   (the .deb lands in OUT_DIR)
set -e
src=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
[ -n "$build" ] && [ -n "$out" ] || { echo "usage: $0 BUILD_DIR OUT_DIR" >&2; exit 2; }
# Compiled as a Debian package build compiles: dpkg-buildflags, with all
# its hardening (fortify, stack protector, relro, bind now).
flags() { (cd "$src" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"); }
ldflags=$(flags LDFLAGS)
# Only what the package holds is built (no tests, no benchmarks), and
# cpack's install step does not build the rest either.
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMDSIM_WERROR=ON -DCMAKE_INSTALL_PREFIX=/usr \
    -DCMAKE_C_FLAGS="$(flags CFLAGS) $(flags CPPFLAGS)" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
    -DCMAKE_MODULE_LINKER_FLAGS="$ldflags" -DMDSIM_MAN=ON -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON > /dev/null
cmake --build "$build" -j"$(nproc)" --target mdsim mdsim_ssh man changelog
rm -f "$build"/mdsim_*.deb
(cd "$build" && cpack -G DEB)
mkdir -p "$out"
rm -f "$out"/mdsim_*.deb
mv "$build"/mdsim_*.deb "$out"/
ls "$out"/mdsim_*.deb
