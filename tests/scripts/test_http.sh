#!/bin/bash
# The lab's page (`mdsim serve --http`, docs/http.md) in Debian's headless
# Chromium: log in, a console per switch (`show switchname`, `?`, Tab,
# Ctrl-C, the pager), a tunnel brought up from MDS2's console seen
# trunking on the page, a plot that moves (tests/tools/browser_check.py).
# Then the module's place: mdsim does not link civetweb, and serve --http
# without mdsim_http.so stops before it listens.
# usage: test_http.sh MDSIM
here=$(cd "$(dirname "$0")" && pwd)
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x $tool ] || { echo "SKIP: no $tool (scripts/install-deps.sh installs chromium and chromium-driver)"; exit 77; }
done
# Debian's selenium is in its own python, not in one first on PATH.
/usr/bin/python3 -c 'import selenium' 2> /dev/null ||
    { echo "FAIL: no python3-selenium for /usr/bin/python3 (scripts/install-deps.sh installs it)"; exit 1; }
. "$here/../tools/serve_lib.sh"

# The reference lab with both ends of its tunnel configured, MDS2's shut.
"$mdsim" --db "$work/lab.db" lab create "$here/../../examples/labs/san-extension.lab" > /dev/null || fail "lab create"
sed -n '13,62p;66p' "$here/../../examples/seed-lab.txt" |
    awk '/^MDS2\(config-if\)# no shutdown/ && !done { sub(/no shutdown/, "shutdown"); done = 1 } { print }' \
        > "$work/prep.txt"
"$mdsim" --db "$work/lab.db" replay "$work/prep.txt" > "$work/prep.out" 2>&1 || fail "prep: $(tail -3 "$work/prep.out")"

serve_start "$work/lab.db" --http 0 || exit 1
url=$(grep -m1 '^http://127.0.0.1:[0-9]*/$' "$work/serve.$TP.out")
[ -n "$url" ] || { fail "serve printed no page URL: $(cat "$work/serve.$TP.out")"; finish; }
timeout 400 /usr/bin/python3 "$here/../tools/browser_check.py" "$url" > "$work/browser.out" 2>&1 ||
    fail "in the browser: $(cat "$work/browser.out")"
grep '^ok:' "$work/browser.out"
serve_stop || fail "serve did not stop cleanly"

# The module: only serve --http loads it.
ldd "$mdsim" | grep -q civetweb && fail "mdsim itself links civetweb"
mkdir "$work/alone"
cp "$mdsim" "$(dirname "$mdsim")/mdsim_ssh.so" "$work/alone/"
timeout 20 "$work/alone/mdsim" --db "$work/lab.db" serve --telnet-port 0 --ssh-port 0 --http 0 \
    > "$work/alone.out" 2> "$work/alone.err"
rc=$?
[ "$rc" -eq 1 ] || fail "serve --http without mdsim_http.so exited $rc: $(cat "$work/alone.err")"
grep -q "HTTP is in mdsim_http.so beside the program" "$work/alone.err" || fail "its message: $(cat "$work/alone.err")"
grep -q "ready" "$work/alone.err" && fail "serve said it was ready without its HTTP module"
finish
