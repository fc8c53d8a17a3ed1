#!/bin/bash
# bench_http.sh: what `serve --http` costs and how fast its console is
# (docs/http.md): the module's size; serve's resident memory once ready
# without and with --http; a command's round trip in a browser's console
# (keys over the WebSocket to the answer and the prompt back), median and
# 95th percentile of 200 `show switchname`; serve's CPU over 10 s with a
# live page's socket open (topology and series pushed every 500 ms) and
# without. The reference lab, loopback. Prints figures, never fails on
# time. usage: bench_http.sh [MDSIM]
mdsim=${1:-build/mdsim}
mdsim=$(cd "$(dirname "$mdsim")" && pwd)/$(basename "$mdsim")
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill $pid 2> /dev/null; rm -rf "$dir"' EXIT

start() { # serve options; sets pid and url
    rm -f "$dir"/l.db*
    "$mdsim" --db "$dir/l.db" lab create "$root/examples/labs/san-extension.lab" > /dev/null
    "$mdsim" --db "$dir/l.db" serve --telnet-port 0 --ssh-port 0 "$@" > "$dir/out" 2> "$dir/err" &
    pid=$!
    for _ in $(seq 100); do grep -q ready "$dir/err" && break; sleep 0.1; done
    url=$(grep -m1 '^http://' "$dir/out")
}
stop() { kill $pid; wait $pid 2> /dev/null; pid=""; }
rss() { awk '/VmRSS/ { print $2 }' /proc/$pid/status; }
cpu_ms() { awk '{ print ($14 + $15) * 1000 / '"$(getconf CLK_TCK)"' }' /proc/$pid/stat; }

printf 'mdsim_http.so: %d KB (the page and xterm.js inside)\n' $(( $(stat -c %s "$(dirname "$mdsim")/mdsim_http.so") / 1024 ))
start
sleep 1
echo "serve resident once ready, without --http: $(rss) KB"
c0=$(cpu_ms); sleep 10; c1=$(cpu_ms)
echo "serve CPU over 10 s idle, without --http: $(awk "BEGIN { print $c1 - $c0 }") ms"
stop
start --http 0
sleep 1
echo "serve resident once ready, with --http: $(rss) KB"
port=${url##*:}
port=${port%/}
/usr/bin/env python3 - "$port" "$root/tests/tools" "$pid" <<'PY'
import os, statistics, sys, time
port, tools, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.argv = ["http_hostile.py", "127.0.0.1", port]
sys.path.insert(0, tools)
import http_hostile as h

def cpu_ms():
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) * 1000 / os.sysconf("SC_CLK_TCK")

cookie = h.login()
con = h.WS(cookie)
con.until(rb"MDS1# $", "its prompt")
times = []
for i in range(200):
    con.text = b""
    t0 = time.perf_counter()
    con.keys(b"show switchname\r")
    con.until(rb"MDS1\r\nMDS1# $", "the answer")
    times.append((time.perf_counter() - t0) * 1000)
times.sort()
print("console round trip of `show switchname`: median %.2f ms, 95th percentile %.2f ms (200)" %
      (statistics.median(times), times[189]))
live = h.WS(cookie, path="/ws/live")
c0 = cpu_ms()
end = time.monotonic() + 10
while time.monotonic() < end:
    live.pump(0.5)
print("serve CPU over 10 s with a live page's socket open: %.0f ms" % (cpu_ms() - c0))
PY
stop
