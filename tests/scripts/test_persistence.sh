#!/bin/sh
# Configuration lives in the lab file: what one run of mdsim configures,
# the next run sees; the saved startup-config text survives and a reload
# in a later run brings it back.
# usage: test_persistence.sh MDSIM
mdsim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
lab="$dir/lab.db"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Runs stdin on the lab in a fresh process; output without the volatile
# !Time lines.
run() { "$mdsim" --db "$lab" "$@" 2>&1 | grep -v '^!Time:'; }

# Run 1: configure both switches and save MDS1.
cat > "$dir/one.txt" <<'CFG'
MDS1# configure terminal
MDS1(config)# switchname persist-1
persist-1(config)# interface gigabitethernet 2/2
persist-1(config-if)# ip address 10.9.8.7 255.255.0.0
persist-1(config-if)# switchport mtu 4000
persist-1(config-if)# switchport description kept across runs
persist-1(config-if)# no shutdown
persist-1(config-if)# end
persist-1# copy running-config startup-config
MDS2# configure terminal
MDS2(config)# interface gigabitethernet 2/5
MDS2(config-if)# no shutdown
MDS2(config-if)# end
CFG
"$mdsim" --db "$lab" replay "$dir/one.txt" > /dev/null 2> "$dir/err" || fail "run 1 failed: $(cat "$dir/err")"

cat > "$dir/want-run" <<'CFG'
persist-1# show running-config
!Command: show running-config

version 5.2(8)
username admin password 5 $5$mdsimdflt$UbI4IL0IijurABPLFme/lvSy4kHp84ueNzE2hBYrNt5 role network-admin
switchname persist-1

interface GigabitEthernet2/2
  switchport description kept across runs
  ip address 10.9.8.7 255.255.0.0
  switchport mtu 4000
  no shutdown
CFG

# Run 2: a new process sees it all, on both switches.
printf 'show running-config\n' | run > "$dir/got" 
diff "$dir/want-run" "$dir/got" > "$dir/diff" || fail "run 2: running-config differs: $(cat "$dir/diff")"
printf 'show running-config | include 2/5|shutdown\n' | run --switch MDS2 > "$dir/got"
grep -qx "interface GigabitEthernet2/5" "$dir/got" || fail "run 2: MDS2's port lost: $(cat "$dir/got")"
grep -qx "  no shutdown" "$dir/got" || fail "run 2: MDS2's no shutdown lost"

# Run 3: the startup-config text is the running-config body at save time.
printf 'show startup-config\n' | run > "$dir/got"
sed -n '/^version/,$p' "$dir/want-run" > "$dir/want-body"
sed -n '/^version/,$p' "$dir/got" > "$dir/got-body"
diff "$dir/want-body" "$dir/got-body" > "$dir/diff" || fail "run 3: startup-config differs: $(cat "$dir/diff")"
grep -q '^!Startup config saved at: ' "$dir/got" || fail "run 3: no 'saved at' line"

# Run 4: change without saving; run 5 still sees the change (running
# config persists) ...
printf 'configure terminal\ninterface gigabitethernet 2/2\nswitchport mtu 5000\nend\n' | run > /dev/null
printf 'show running-config | include mtu\n' | run > "$dir/got"
grep -qx "  switchport mtu 5000" "$dir/got" || fail "run 5: unsaved change lost: $(cat "$dir/got")"
# ... run 6 reloads: back to the saved 4000 ...
printf 'reload\n' | run > /dev/null
printf 'show running-config | include mtu\n' | run > "$dir/got"
grep -qx "  switchport mtu 4000" "$dir/got" || fail "run 7: reload did not restore the saved config: $(cat "$dir/got")"
printf 'show running-config\n' | run > "$dir/got"
diff "$dir/want-run" "$dir/got" > "$dir/diff" || fail "run 7: running-config after reload differs: $(cat "$dir/diff")"

# A failing line in a replay does not lose the lines before it.
printf 'configure terminal\nswitchname before-error\nno such command\n' > "$dir/partial.txt"
"$mdsim" --db "$lab" replay "$dir/partial.txt" > /dev/null 2>&1
printf 'show switchname\n' | run > "$dir/got"
grep -qx "before-error" "$dir/got" || fail "lines before a failing line were lost: $(cat "$dir/got")"

# write erase persists too: after it, a reload in a later run is factory.
printf 'write erase\n' | run --switch before-error > /dev/null
printf 'reload\n' | run > /dev/null
printf 'show running-config\n' | run > "$dir/got"
cat > "$dir/want" <<'CFG'
MDS1# show running-config
!Command: show running-config

version 5.2(8)
username admin password 5 $5$mdsimdflt$UbI4IL0IijurABPLFme/lvSy4kHp84ueNzE2hBYrNt5 role network-admin
switchname MDS1
CFG
diff "$dir/want" "$dir/got" > "$dir/diff" || fail "after write erase + reload: $(cat "$dir/diff")"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all persistence checks passed"
