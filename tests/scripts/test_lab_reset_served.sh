#!/bin/bash
# `lab reset` on a served lab (docs/lab-files.md): it attaches to the
# serving owner, which brings every switch back to its starting
# configuration (examples/labs/seed-capture.lab: VSAN 100, fcip1 not shut);
# a telnet session open across it sees that at its next command, and a
# replay after it too. `lab reset --switch MDS1` there resets MDS1 only
# (before, the owner's job reset every switch, so it was refused).
# usage: test_lab_reset_served.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
db="$work/lab.db"
"$mdsim" --db "$db" lab create "$root/examples/labs/seed-capture.lab" > /dev/null 2> "$work/err" ||
    { fail "lab create: $(cat "$work/err")"; finish; }
serve_start "$db" --speed 0 || { fail "serve"; finish; }

# both switches changed by an attached replay
cat > "$work/change.txt" <<'CMD'
MDS1# configure terminal
MDS1(config)# no feature fcip
MDS1(config)# end
MDS2# configure terminal
MDS2(config)# switchname CHANGED2
CHANGED2(config)# vsan database
CHANGED2(config-vsan-db)# no vsan 100
CHANGED2(config-vsan-db)# end
CMD
"$mdsim" --db "$db" replay "$work/change.txt" > "$work/out" 2> "$work/err" || fail "changes: $(cat "$work/err")"

# a served session open across the reset
cat > "$work/t" <<SCRIPT
@timeout 60
show running-config | include fcip
@touch $work/reset-now
@wait $work/reset-done
show running-config | include fcip|vsan 100|switchname
SCRIPT
timeout 60 "$client" 127.0.0.1 "$TP" < "$work/t" > "$work/t.out" 2>&1 &
tpid=$!
for _ in $(seq 300); do [ -e "$work/reset-now" ] && break; sleep 0.1; done
[ -e "$work/reset-now" ] || fail "the telnet session did not start"
"$mdsim" --db "$db" lab reset > "$work/reset.out" 2> "$work/reset.err" || fail "lab reset: $(cat "$work/reset.err")"
printf 'lab reset: MDS1 reset to its starting configuration\nlab reset: MDS2 reset to its starting configuration\n' |
    cmp -s - "$work/reset.out" || fail "lab reset said: $(cat "$work/reset.out" "$work/reset.err")"
touch "$work/reset-done"
wait "$tpid" || fail "telnet across the reset: $(cat "$work/t.out")"
sed -n '/^MDS1# show running-config | include fcip$/,/^MDS1#/p' "$work/t.out" > "$work/before"
grep -q '^MDS1# show running-config | include fcip$' "$work/before" && ! grep -qx 'feature fcip' "$work/before" ||
    fail "the change had not taken before the reset: $(cat "$work/t.out")"
sed -n '/show running-config | include fcip|vsan 100|switchname$/,$p' "$work/t.out" > "$work/after"
for want in 'feature fcip' '  vsan 100' 'switchname MDS1' 'interface fcip1'; do
    grep -qx -- "$want" "$work/after" || fail "after the reset the served MDS1 lacks '$want': $(cat "$work/t.out")"
done
printf 'MDS2# show running-config | include fcip|vsan 100|switchname\n' > "$work/show2.txt"
"$mdsim" --db "$db" replay "$work/show2.txt" > "$work/show2.out" 2>&1 || fail "replay after reset: $(cat "$work/show2.out")"
for want in 'feature fcip' '  vsan 100' 'switchname MDS2' 'interface fcip1'; do
    grep -qx -- "$want" "$work/show2.out" || fail "after the reset MDS2 lacks '$want': $(cat "$work/show2.out")"
done
# lab reset --switch under serve: that switch only
"$mdsim" --db "$db" replay "$work/change.txt" > "$work/out" 2> "$work/err" || fail "changes again: $(cat "$work/err")"
"$mdsim" --db "$db" --switch MDS1 lab reset > "$work/out" 2> "$work/err"
rc=$?
[ $rc -eq 0 ] || fail "lab reset --switch under serve: exit $rc: $(cat "$work/err")"
grep -q "^lab reset: MDS1 " "$work/out" || fail "lab reset --switch said: $(cat "$work/out" "$work/err")"
grep -q "MDS2" "$work/out" && fail "lab reset --switch MDS1 reset MDS2 too: $(cat "$work/out")"
"$mdsim" --db "$db" lab list > "$work/list" 2>&1
grep -Eq '^MDS2 +CHANGED2 ' "$work/list" || fail "lab reset --switch MDS1 under serve changed MDS2: $(cat "$work/list")"
grep -Eq '^MDS1 +MDS1 ' "$work/list" || fail "lab reset --switch MDS1 under serve: $(cat "$work/list")"
serve_stop || fail "serve did not stop cleanly"
cat "$work"/sanitizer* 2> /dev/null && fail "sanitizer reports"
finish
