#!/bin/bash
# Hostile input against `mdsim serve --http` (docs/http.md): oversized
# request lines, headers and forms, a flood of idle connections,
# WebSockets without a session, huge, oversized and fragmented frames,
# bad UTF-8 (tests/tools/http_hostile.py). A logged-in console answers
# throughout, the server serves on, and stops cleanly after.
# usage: test_http_hostile.sh MDSIM
here=$(cd "$(dirname "$0")" && pwd)
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 77; }
. "$here/../tools/serve_lib.sh"

serve_start "$work/lab.db" --http 0 || exit 1
url=$(grep -m1 '^http://127.0.0.1:[0-9]*/$' "$work/serve.$TP.out")
port=${url##*:}
port=${port%/}
[ -n "$url" ] || { fail "serve printed no page URL"; finish; }
timeout 300 python3 "$here/../tools/http_hostile.py" 127.0.0.1 "$port" > "$work/hostile.out" 2>&1 ||
    fail "$(cat "$work/hostile.out")"
grep '^ok:' "$work/hostile.out"
kill -0 "$SERVE_PID" 2> /dev/null || fail "serve died: $(tail -5 "$SERVE_ERR")"
serve_stop || fail "serve did not stop cleanly"
finish
