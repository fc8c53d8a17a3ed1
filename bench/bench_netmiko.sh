#!/bin/bash
# Benchmark of netmiko (Debian's python3-netmiko 2.4.2, device_type
# cisco_nxos) against `mdsim serve` on one SSH channel (prints figures,
# asserts nothing): send_command throughput with netmiko's defaults, whose
# own sleeps (0.1 s in find_prompt, 0.2 s per read loop) set the pace, and
# with those sleeps cut to almost nothing (fast_cli, delay factor 0.001,
# the prompt given), where mdsim and paramiko do; then send_config_set.
# Every answer is checked: a wrong one is counted and printed.
# usage: bench/bench_netmiko.sh MDSIM [SECONDS]
mdsim=$1
secs=${2:-5}
py=/usr/bin/python3 # Debian's, which has netmiko (not a pyenv's first in PATH)
[ -x "$py" ] || py=python3
[ -x "$mdsim" ] || { echo "usage: $0 MDSIM [SECONDS]"; exit 2; }
"$py" -c 'import netmiko' 2> /dev/null || { echo "bench_netmiko: no netmiko (apt-get install python3-netmiko)"; exit 0; }
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; wait 2> /dev/null; rm -rf "$work"' EXIT
TP=$((10000 + (RANDOM * 31 + $$) % 22000))
SP=$((TP + 16))
"$mdsim" --db "$work/lab.db" serve --telnet-port "$TP" --ssh-port "$SP" > /dev/null 2> "$work/err" &
pid=$!
for _ in $(seq 100); do grep -q ready "$work/err" && break; sleep 0.1; done
grep -q ready "$work/err" || { cat "$work/err"; exit 1; }

cat > "$work/bench.py" <<'EOF'
import sys, time
from netmiko import ConnectHandler

port, secs = int(sys.argv[1]), float(sys.argv[2])

def connect(**kw):
    t0 = time.time()
    c = ConnectHandler(device_type="cisco_nxos", host="127.0.0.1", port=port, username="admin",
                       password="admin", allow_agent=False, use_keys=False, **kw)
    return c, time.time() - t0

def rate(name, fn, want, secs):
    n, bad, t0 = 0, 0, time.time()
    while time.time() - t0 < secs:
        bad += want not in fn()
        n += 1
    dt = time.time() - t0
    print("%-36s %7.1f commands/s (%5d in %.1f s, %6.2f ms each%s)"
          % (name, n / dt, n, dt, 1000 * dt / n, ", %d WRONG" % bad if bad else ""))

def raw_paramiko(secs):
    """The same channel without netmiko: send a line, read up to the prompt."""
    c, _ = connect()
    ch = c.remote_conn
    def one():
        ch.send("show switchname\n")
        buf = b""
        while not buf.endswith(b"MDS1# "):
            buf += ch.recv(65536)
        return buf.decode()
    rate("paramiko alone, show switchname", one, "MDS1", secs)
    c.disconnect()

c, t = connect()
print("%-36s %7.2f s" % ("connect (netmiko defaults)", t))
rate("send_command, netmiko defaults", lambda: c.send_command("show switchname"), "MDS1", min(secs, 3))
# What mdsim and paramiko allow: netmiko's sleeps cut to almost nothing
# once the session is prepared, the prompt given.
c.fast_cli, c.global_delay_factor = True, 0.001
fast = lambda cmd: c.send_command(cmd, expect_string=r"MDS1#", delay_factor=0.001)
rate("send_command show switchname, fast", lambda: fast("show switchname"), "MDS1", secs)
rate("send_command show version, fast", lambda: fast("show version"), "Device name: MDS1", secs)
cfg = ["interface GigabitEthernet2/1", "switchport description bench"]
# send_config_set and the mode checks read on timing, not up to a prompt:
# with no delay they race the answer, so these keep a factor of 0.1.
c.global_delay_factor = 0.1
rate("send_config_set of 2 lines, 0.1", lambda: c.send_config_set(cfg), "switchport description bench", secs)
if "switchport description bench" not in fast("show running-config interface gigabitethernet 2/1"):
    print("send_config_set: the description is NOT in the running-config")
c.disconnect()
raw_paramiko(secs)
EOF
"$py" "$work/bench.py" "$SP" "$secs"
