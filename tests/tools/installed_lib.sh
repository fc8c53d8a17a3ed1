# Shared by tests/scripts/test_install.sh and test_deb.sh (sourced after
# serve_lib.sh, bash): runs mdsim as installed under a scratch root.

# check_installed ROOT: ROOT/usr/bin/mdsim, with nothing beside it, prints
# its version and commit, makes a lab from the installed example lab file,
# replays a script on it, and serves it: SSH answers, so the program found
# its module where it was installed (ROOT/usr/lib/.../mdsim/); so do
# the page and xterm.js of serve --http, from the other module.
check_installed() {
    local root=$1
    local mdsim=$root/usr/bin/mdsim # serve_start runs $mdsim
    local src version module out
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    version=$(sed -n 's/^project(mdsim VERSION \([0-9][0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
    [ -x "$mdsim" ] || { fail "no program at $mdsim"; return; }
    [ ! -e "$root/usr/bin/mdsim_ssh.so" ] || fail "the module is beside the installed program"
    module=$(find "$root/usr/lib" -path '*/mdsim/mdsim_ssh.so')
    [ -n "$module" ] || fail "no mdsim/mdsim_ssh.so under $root/usr/lib"
    [ -n "$(find "$root/usr/lib" -path '*/mdsim/mdsim_http.so')" ] || fail "no mdsim/mdsim_http.so under $root/usr/lib"

    out=$("$mdsim" --version 2>&1 | head -1)
    echo "$out" | grep -Eq "^mdsim $version \(commit ([0-9a-f]{4,}(-dirty)?|unknown)\)$" ||
        fail "installed --version: '$out'"

    "$mdsim" --db "$work/inst.db" lab create "$root/usr/share/doc/mdsim/examples/labs/san-extension.lab" \
        > "$work/create.out" 2>&1 || fail "installed lab create: $(cat "$work/create.out")"
    printf 'configure terminal\nswitchname INSTALLED\nend\nshow switchname\n' > "$work/inst.txt"
    "$mdsim" --db "$work/inst.db" replay "$work/inst.txt" > "$work/replay.out" 2>&1 ||
        fail "installed replay: $(cat "$work/replay.out")"
    grep -q '^INSTALLED$' "$work/replay.out" || fail "installed replay printed: $(cat "$work/replay.out")"

    serve_start "$work/inst.db" --http 0 || { fail "installed serve did not start"; return; }
    out=$(ssh_as admin admin "$SP" -n 'show switchname' 2>&1)
    [ "$out" = "INSTALLED" ] || fail "installed serve over SSH: '$out'"
    # the page and xterm.js come from inside the installed mdsim_http.so
    local url
    url=$(grep -m1 '^http://' "$work/serve.$TP.out")
    for page in / /vendor/xterm/xterm.js; do
        timeout 20 python3 -c 'import sys, urllib.request; sys.exit(urllib.request.urlopen(sys.argv[1]).status != 200)' \
            "${url%/}$page" 2> /dev/null || fail "installed serve --http: no $page at $url"
    done
    serve_stop > /dev/null || fail "installed serve stopped badly"
}
