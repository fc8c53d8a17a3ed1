#!/bin/bash
# One lab, one owner, with `mdsim serve` owning the lab (docs/lab-owner.md):
# a console, a replay and `lab reset` started beside it attach to it, so
# served sessions and they see one state at every command. (Before, each
# process had its own caches: a served session kept the old host name
# after a replay or a reset, and saved a stale configuration.) Also: `lab
# create` and a second `serve` are refused while the lab is owned; host
# files are read relative to the attached process's directory.
# usage: test_owner_serve.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
mdsim=$(realpath "$mdsim") client=$(realpath "$client") # the test changes directory
# a background owner's stderr is /dev/null: sanitizer reports go to files
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
db="$work/lab.db"
serve_start "$db" --speed 0 || { fail "serve"; finish; }

# a served session and a console see each other's switchname
cat > "$work/t" <<SCRIPT
@timeout 60
configure terminal
switchname SERVED1
end
@touch $work/t1
@wait $work/c1
show switchname
SCRIPT
cat > "$work/c" <<SCRIPT
@timeout 60
@wait $work/t1
show switchname
configure terminal
switchname CONSOLE1
end
show users
@touch $work/c1
SCRIPT
timeout 60 "$client" 127.0.0.1 "$TP" < "$work/t" > "$work/t.out" 2>&1 &
tpid=$!
timeout 60 "$client" -c "$mdsim" "$db" < "$work/c" > "$work/c.out" 2>&1 || fail "console: $(cat "$work/c.out")"
wait "$tpid" || fail "telnet: $(cat "$work/t.out")"
grep -A1 '# show switchname$' "$work/c.out" | grep -qx SERVED1 || fail "the console did not see the served switchname: $(cat "$work/c.out")"
grep -A1 '^SERVED1# show switchname$' "$work/t.out" | grep -qx CONSOLE1 ||
    fail "the served session did not see the console's switchname: $(cat "$work/t.out")"
grep -Eq '^admin +pts/[0-9]+ .*session=telnet' "$work/c.out" || fail "the console's show users lacks the telnet session: $(cat "$work/c.out")"

# host files (copy FILE bootflash:): a console and a replay attached to
# the owner read them as their user, relative to their own directory
mkdir -p "$work/here"
echo "console bytes" > "$work/here/con.bin"
echo "replay bytes" > "$work/here/rep.bin"
printf '@timeout 60\ncopy con.bin bootflash:con.bin\n' > "$work/cb"
(cd "$work/here" && timeout 60 "$client" -c "$mdsim" "$db" < "$work/cb") > "$work/cb.out" 2>&1 ||
    fail "console copy: $(cat "$work/cb.out")"
(cd "$work/here" && printf 'copy rep.bin bootflash:rep.bin\n' | "$mdsim" --db "$db") > "$work/rb.out" 2>&1 ||
    fail "replay copy: $(cat "$work/rb.out")"
printf 'dir bootflash:\n' | "$mdsim" --db "$db" > "$work/dir.out" 2>&1
grep -q 'con.bin' "$work/dir.out" && grep -q 'rep.bin' "$work/dir.out" ||
    fail "host files did not reach bootflash: $(cat "$work/cb.out" "$work/rb.out" "$work/dir.out")"

# replay -> served session
printf 'configure terminal\nswitchname REPLAYED\ninterface gigabitethernet2/1\nswitchport description from-replay\nend\n' > "$work/r1"
"$mdsim" --db "$db" replay "$work/r1" > "$work/r1.out" 2>&1 || fail "replay: $(cat "$work/r1.out")"
printf 'show switchname\nshow running-config interface gigabitethernet2/1 | include description\n' |
    timeout 30 "$client" 127.0.0.1 "$TP" > "$work/s1.out" 2>&1 || fail "telnet after replay: $(cat "$work/s1.out")"
grep -qx REPLAYED "$work/s1.out" || fail "the served session did not see the replay's switchname: $(cat "$work/s1.out")"
grep -q 'switchport description from-replay' "$work/s1.out" || fail "the served session did not see the replay's description: $(cat "$work/s1.out")"

# served session -> replay
printf 'configure terminal\nswitchname SERVED2\nend\n' | timeout 30 "$client" 127.0.0.1 "$TP" > "$work/s2.out" 2>&1 ||
    fail "telnet: $(cat "$work/s2.out")"
printf 'show switchname\n' | "$mdsim" --db "$db" > "$work/r2.out" 2>&1 || fail "stdin transcript: $(cat "$work/r2.out")"
grep -qx 'SERVED2# show switchname' "$work/r2.out" && grep -qx SERVED2 "$work/r2.out" ||
    fail "the replay did not see the served switchname: $(cat "$work/r2.out")"

# lab reset while a session is open: its next command sees the factory
# configuration, and `copy run start` saves that, not a stale one
cat > "$work/t3" <<SCRIPT
@timeout 60
configure terminal
san-ext-tuner enable
switchname BEFORE-RESET
@touch $work/reset-now
@wait $work/reset-done
do show switchname
do show running-config | include san-ext
end
copy running-config startup-config
show startup-config | include switchname|san-ext
SCRIPT
timeout 60 "$client" 127.0.0.1 "$TP" < "$work/t3" > "$work/t3.out" 2>&1 &
tpid=$!
for _ in $(seq 100); do [ -e "$work/reset-now" ] && break; sleep 0.1; done
"$mdsim" --db "$db" lab reset > "$work/reset.out" 2>&1 || fail "lab reset: $(cat "$work/reset.out")"
grep -q 'reset to factory configuration' "$work/reset.out" || fail "lab reset said: $(cat "$work/reset.out")"
touch "$work/reset-done"
wait "$tpid" || fail "telnet across the reset: $(cat "$work/t3.out")"
grep -A1 '# do show switchname$' "$work/t3.out" | grep -qx MDS1 ||
    fail "after lab reset the served session still has the old host name: $(cat "$work/t3.out")"
grep -q '^MDS1(config)# do show running-config' "$work/t3.out" || fail "prompt after reset: $(cat "$work/t3.out")"
grep -q '^BEFORE-RESET(config)# do show switchname$' "$work/t3.out" || fail "the session had not configured: $(cat "$work/t3.out")"
grep -q '^san-ext-tuner enable' "$work/t3.out" && fail "after lab reset san-ext-tuner is still enabled: $(cat "$work/t3.out")"
sed -n '/# show startup-config/,$p' "$work/t3.out" | tail -n +2 > "$work/startup"
grep -qx 'switchname MDS1' "$work/startup" && ! grep -q -e BEFORE-RESET -e san-ext "$work/startup" ||
    fail "copy run start after the reset saved a stale configuration: $(cat "$work/startup")"
"$mdsim" --db "$db" lab list > "$work/list" 2>&1
grep -Eq '^MDS1 +MDS1 ' "$work/list" || fail "lab list through the owner: $(cat "$work/list")"

# lab create on a lab someone owns: refused, naming the owner
root=$(cd "$(dirname "$0")/../.." && pwd)
"$mdsim" --db "$db" lab create "$root/examples/labs/san-extension.lab" > /dev/null 2> "$work/create" &&
    fail "lab create on an owned lab succeeded"
grep -q "in use by mdsim process $SERVE_PID" "$work/create" || fail "lab create refusal: $(cat "$work/create")"

# a second serve is refused while one owns the lab
"$mdsim" --db "$db" serve --telnet-port 0 --ssh-port 0 > /dev/null 2> "$work/second" && fail "a second serve started"
grep -q "already served" "$work/second" || fail "second serve: $(cat "$work/second")"
serve_stop || fail "serve did not stop cleanly: $(cat "$SERVE_ERR")"
[ -e "$db-owner" ] && fail "serve left its owner directory behind"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
