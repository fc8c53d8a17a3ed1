#!/bin/bash
# Debian's netmiko (python3-netmiko 2.4.2, device_type cisco_nxos) against
# `mdsim serve`, unpatched: it finds the prompt, turns paging off,
# send_command gives the output alone, send_config_set enters and leaves
# configuration mode, save_config copies running to startup, and a
# second connection sees it all. Skipped (77) only when netmiko is missing.
# usage: test_netmiko.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
py=/usr/bin/python3 # Debian's, which has netmiko (not a pyenv's first in PATH)
[ -x "$py" ] || py=python3
"$py" -c 'import netmiko' 2> /dev/null || { echo "skip: no netmiko"; exit 77; }

serve_start "$work/lab.db" || { fail "serve"; finish; }

cat > "$work/nm.py" <<'EOF'
import sys
from netmiko import ConnectHandler

def connect():
    return ConnectHandler(device_type="cisco_nxos", host="127.0.0.1", port=int(sys.argv[1]),
                          username="admin", password="admin", allow_agent=False, use_keys=False)

def check(what, ok, got):
    if not ok:
        print("FAIL: %s: %r" % (what, got))
        sys.exit(1)

c = connect()
check("prompt", c.find_prompt() == "MDS1#", c.find_prompt())
out = c.send_command("show version")
check("show version", "system:    version 5.2(8)" in out and "MDS1#" not in out, out)
out = c.send_command("show interface")  # over 100 lines: paging is off
check("show interface, every port", all("GigabitEthernet2/%d is" % i in out for i in range(1, 9))
      and "--More--" not in out, out)
out = c.send_command("show bogus")
check("an error comes back as output", "% Invalid command at '^' marker." in out, out)
out = c.send_config_set(["interface GigabitEthernet2/2", "switchport description by netmiko",
                         "ip address 10.9.9.1 255.255.255.0"])
check("send_config_set", "MDS1(config-if)#" in out and "Invalid" not in out, out)
check("back at exec mode", c.find_prompt() == "MDS1#", c.find_prompt())
out = c.save_config()
check("save_config", "Copy complete." in out, out)
c.disconnect()

c = connect()
out = c.send_command("show startup-config")
check("saved", "interface GigabitEthernet2/2\n  switchport description by netmiko\n"
               "  ip address 10.9.9.1 255.255.255.0" in out, out)
c.disconnect()
print("netmiko ok")
EOF
timeout 120 "$py" "$work/nm.py" "$SP" > "$work/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q '^netmiko ok$' "$work/out" || fail "netmiko (exit $rc): $(tail -20 "$work/out")"
grep -q -e Sanitizer -e 'runtime error' "$SERVE_ERR" && fail "serve: $(grep -A5 -e Sanitizer -e 'runtime error' "$SERVE_ERR")"
finish
