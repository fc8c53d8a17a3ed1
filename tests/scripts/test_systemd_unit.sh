#!/bin/sh
# packaging/systemd/mdsim-serve@.service (docs/systemd.md): systemd accepts
# it (`systemd-analyze verify`, no warning about it), its hardening does
# not regress (`systemd-analyze security --offline=true`: exposure at most
# 1.1, and no protection fails but the few a network server must leave
# open), the sysusers file makes the user, and the unit's own command line
# serves a lab under the sandbox it asks for. systemd is not PID 1 in a
# container or on CI, so that last part runs the command line directly
# under tests/tools/unit_sandbox.py (NoNewPrivileges, MemoryDenyWriteExecute,
# SystemCallFilter, RestrictAddressFamilies, read from the unit).
# usage: test_systemd_unit.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../.."
unit="$src/packaging/systemd/mdsim-serve@.service"
for tool in systemd-analyze systemd-sysusers /usr/bin/python3; do
    command -v $tool > /dev/null ||
        { echo "SKIP: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
client="$(dirname "$mdsim")/mdsim_client"
[ -x "$mdsim" ] && [ -x "$client" ] || { echo "FAIL: need $mdsim and $client"; exit 1; }
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -KILL $pid 2> /dev/null; rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export LC_ALL=C # systemd-analyze's marks in ASCII

# An instance of the template, whose ExecStart names the mdsim under test
# (verify checks that the program exists).
inst="$work/mdsim-serve@test.service"
sed "s#^ExecStart=/usr/bin/mdsim #ExecStart=$mdsim #" "$unit" > "$inst"
grep -q "^ExecStart=$mdsim " "$inst" || fail "the unit's ExecStart does not start with /usr/bin/mdsim"

# verify exits 0 even for unknown keys or bad values: its words count.
systemd-analyze verify "$inst" > "$work/verify" 2>&1 || fail "verify: exit $?"
grep -q 'mdsim-serve@' "$work/verify" && fail "verify: $(cat "$work/verify")"

# 1.1 is the score today (systemd 252); what fails is the network that a
# server needs (PrivateNetwork, IPAddressDeny, the INET and UNIX
# families), the host's root directory, and the clock's read-only device
# that ProtectClock leaves. Anything else failing is a regression.
systemd-analyze security --offline=true --threshold=11 --json=short "$inst" > "$work/security" 2> "$work/security.err" ||
    fail "security: exposure over 1.1: $(LC_ALL=C systemd-analyze security --offline=true "$inst" 2>&1 | tail -1)"
/usr/bin/python3 - "$work/security" << 'EOF' || fails=$((fails + 1))
import json, sys
expected = {"RootDirectory=/RootImage=", "RestrictAddressFamilies=~AF_UNIX",
            "RestrictAddressFamilies=~AF_(INET|INET6)", "PrivateNetwork=", "IPAddressDeny=",
            "DeviceAllow="}
items = json.load(open(sys.argv[1]))
failing = {i["name"] for i in items if i["exposure"] is not None}
bad = sorted(failing - expected)
for name in ("User=/DynamicUser=", "NoNewPrivileges=", "ProtectSystem=", "ProtectHome=",
             "PrivateTmp=", "PrivateDevices=", "MemoryDenyWriteExecute=",
             "CapabilityBoundingSet=~CAP_SYS_ADMIN", "SystemCallFilter=~@privileged",
             "RestrictAddressFamilies=~AF_NETLINK"):
    if name not in {i["name"] for i in items}:
        bad.append(name + " (not assessed)")
if bad:
    print("FAIL: security: " + ", ".join(bad))
    sys.exit(1)
EOF

# The user, as the package's postinst makes it.
mkdir -p "$work/root/etc"
systemd-sysusers --root="$work/root" --dry-run "$src/packaging/systemd/mdsim.sysusers" > "$work/sysusers" 2>&1 ||
    fail "sysusers: $(cat "$work/sysusers")"
grep -q "Creating user 'mdsim'" "$work/sysusers" || fail "sysusers makes no user mdsim: $(cat "$work/sysusers")"

# The command line, as systemd would run it for instance `test` with
# MDSIM_SERVE_ARGS from /etc/mdsim/test.conf (ports 0: free ones, so
# tests running side by side never collide); the state directory as
# systemd makes it. A lab that does not exist yet is the default lab.
mkdir -m 700 -p "$work/state/test"
line=$(sed -n 's/^ExecStart=//p' "$inst" | sed "s#%i#test#g; s#/var/lib/mdsim/#$work/state/#g")
MDSIM_SERVE_ARGS="--telnet-port 0 --ssh-port 0"
eval "set -- $line" # systemd splits an unquoted $VAR into words too
# In the sanitizer build, LeakSanitizer stops the world with ptrace, which
# the unit's filter refuses: no leak check here (the other serve tests
# make it).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    /usr/bin/python3 "$here/../tools/unit_sandbox.py" "$inst" "$@" > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 100); do
    grep -q "^mdsim serve: ready" "$work/err" && break
    kill -0 $pid 2> /dev/null || break
    sleep 0.1
done
grep -q "^mdsim serve: ready" "$work/err" ||
    { echo "FAIL: serve under the sandbox did not start: $(cat "$work/err")"; exit 1; }
grep "^unit_sandbox:" "$work/err"
port() { awk -v sw="$1" -v col="$2" '$1 == sw { n = split($col, a, ":"); print a[n] }' "$work/out"; }
t1=$(port MDS1 3)
s2=$(port MDS2 4)
out=$(printf 'show switchname\n' | timeout 20 "$client" 127.0.0.1 "$t1" 2>&1)
echo "$out" | grep -qx 'MDS1' || fail "telnet to MDS1: $out"
out=$(printf 'show switchname\n' | timeout 20 "$client" -s 127.0.0.1 "$s2" 2>&1)
echo "$out" | grep -qx 'MDS2' || fail "SSH to MDS2 (libssh under MemoryDenyWriteExecute): $out"
# A console attaches to the served lab over its AF_UNIX socket.
out=$(echo 'show switchname' | timeout 20 "$mdsim" --db "$work/state/test/lab.db" 2>&1)
echo "$out" | grep -qx 'MDS1' || fail "a console attached to the served lab: $out"
kill -TERM $pid
wait $pid
rc=$?
pid=""
[ $rc = 0 ] || fail "serve after SIGTERM: exit $rc: $(cat "$work/err")"
[ -f "$work/state/test/lab.db" ] || fail "no lab at the state directory's lab.db"

[ $fails = 0 ] || exit 1
echo "PASS"
