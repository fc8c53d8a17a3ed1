#!/bin/bash
# Several sessions at once: a change made in one is seen by another at
# once; `show users` lists the live sessions of its switch; terminal
# settings are per session; and the terminal behaves like NX-OS: pager,
# `?`, Tab, Ctrl-C, Ctrl-Z, history, idle timeout.
# usage: test_serve_sessions.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
serve_start "$work/lab.db" || { fail "serve"; finish; }
f="$work/flag"

cat > "$work/a" <<SCRIPT
terminal length 10
configure terminal
interface gigabitethernet2/1
switchport description from-A
@touch $f.a1
@wait $f.b1
do show running-config interface gigabitethernet2/1
end
show terminal
@wait $f.b2
SCRIPT
cat > "$work/b" <<SCRIPT
@wait $f.a1
show running-config interface gigabitethernet2/1
configure terminal
interface gigabitethernet2/1
switchport description from-B
@touch $f.b1
end
show users
show terminal
@touch $f.b2
SCRIPT
timeout 60 "$client" -e 127.0.0.1 "$TP" < "$work/a" > "$work/a.out" 2>&1 &
apid=$!
timeout 60 "$client" -e -s 127.0.0.1 "$SP" < "$work/b" > "$work/b.out" 2>&1 || fail "session B: $(cat "$work/b.out")"
wait $apid || fail "session A: $(cat "$work/a.out")"
grep -q "description from-A" "$work/b.out" || fail "B did not see A's change: $(cat "$work/b.out")"
grep -q "description from-B" "$work/a.out" || fail "A did not see B's change: $(cat "$work/a.out")"
[ "$(grep -c 'session=' "$work/b.out")" = 2 ] || fail "show users, two sessions: $(cat "$work/b.out")"
grep -q 'session=telnet$' "$work/b.out" && grep -q 'session=ssh \*$' "$work/b.out" ||
    fail "show users marks: $(cat "$work/b.out")"
grep -q "Length: 10 lines" "$work/a.out" || fail "A's terminal length: $(cat "$work/a.out")"
grep -q "Length: 0 lines" "$work/b.out" || fail "B's terminal length: $(cat "$work/b.out")"
# another switch lists only its own sessions
printf 'show users\n' | "$client" 127.0.0.1 $((TP + 1)) > "$work/c.out"
[ "$(grep -c 'session=' "$work/c.out")" = 1 ] || fail "show users on the other switch: $(cat "$work/c.out")"

# The terminal: pager (space, Enter, q), ?, Tab, Ctrl-C, Ctrl-Z, history.
cat > "$work/keys" <<'SCRIPT'
@send show interface\r
@expect --More--
@send  
@expect --More--
@send \r
@expect --More--
@send q
@expect # 
@send sh\t
@expect show 
@send sw\t
@expect switchname 
@send \r
@expect # 
@send show sw?
@expect Display system's host name
@expect show sw
@send \x15\r
@expect # 
@send conf\tt\t\r
@expect (config)# 
@send interface gig\x03
@expect (config)# 
@send \x1a
@expect # 
@send \x10
@expect configure terminal
@send \x15\r
@expect # 
@send show users\r
@expect session=telnet *
SCRIPT
timeout 60 "$client" -x 127.0.0.1 "$TP" < "$work/keys" > "$work/keys.out" 2>&1 || fail "terminal keys: $(cat "$work/keys.out")"

# A question left unanswered holds up nobody: while one session sits at
# `write erase`'s (y/n), another on MDS2 works (the client gives up after
# 15 s; the question used to hold the lab for 30).
printf '@send write erase\\r\n@expect [n]\n@touch %s\n@pause 20000\n' "$f.asking" |
    timeout 30 "$client" 127.0.0.1 "$TP" > /dev/null 2>&1 &
asking=$!
for _ in $(seq 100); do [ -e "$f.asking" ] && break; sleep 0.1; done
[ -e "$f.asking" ] || fail "no write erase question"
printf 'show switchname\n' | "$client" -e 127.0.0.1 "$((TP + 1))" > "$work/ask.out" 2>&1 ||
    fail "a session waited for another's question: $(cat "$work/ask.out")"
kill "$asking" 2> /dev/null
wait "$asking" 2> /dev/null
serve_stop || fail "serve did not stop cleanly"

# Idle timeout: the session is logged out, the server stays.
serve_start "$work/lab.db" --idle-timeout 1 || fail "serve with idle timeout"
printf '@expect Idle timeout\n' | timeout 30 "$client" 127.0.0.1 "$TP" > "$work/idle.out" 2>&1 ||
    fail "no idle timeout: $(cat "$work/idle.out")"
printf 'show switchname\n' | "$client" -e 127.0.0.1 "$TP" > /dev/null || fail "serve after an idle timeout"
# The switch's `line vty` `exec-timeout` (minutes) overrides --idle-timeout:
# idle for 3 s under a 1-minute limit, the session is still there.
printf 'configure terminal\nline vty\nexec-timeout 1\nend\n@pause 3000\nshow switchname\n' |
    timeout 30 "$client" -e 127.0.0.1 "$TP" > "$work/exec.out" 2>&1
grep -q '^MDS1$' "$work/exec.out" && ! grep -q "Idle timeout" "$work/exec.out" ||
    fail "exec-timeout 1 did not override --idle-timeout 1: $(cat "$work/exec.out")"
printf 'configure terminal\nline vty\nno exec-timeout\nend\n' | "$client" -e 127.0.0.1 "$TP" > /dev/null ||
    fail "no exec-timeout"
# SIGINT stops it as cleanly as SIGTERM, with a session open
printf '@send show users\\r\n@expect session=\n@touch %s\n@expect Idle timeout\n' "$f.open" |
    timeout 30 "$client" 127.0.0.1 "$TP" > /dev/null 2>&1 &
for _ in $(seq 100); do [ -e "$f.open" ] && break; sleep 0.1; done
kill -INT "$SERVE_PID"
for _ in $(seq 100); do kill -0 "$SERVE_PID" 2> /dev/null || break; sleep 0.1; done
wait "$SERVE_PID" || fail "SIGINT: serve exited with $?"
grep -q "signal 2, stopping" "$SERVE_ERR" || fail "SIGINT not logged: $(cat "$SERVE_ERR")"
wait

# A stop while a session sleeps on real time: the sleep is cut short and
# what other sessions did meanwhile (inside the sleeping command's
# savepoint) is committed, not lost.
serve_start "$work/lab.db" || fail "serve for the sleep"
printf '@send sleep 3600\\r\n@touch %s\n@expect never\n' "$f.sleep" |
    timeout 60 "$client" 127.0.0.1 "$TP" > /dev/null 2>&1 &
for _ in $(seq 100); do [ -e "$f.sleep" ] && break; sleep 0.1; done
sleep 0.3
printf 'configure terminal\ninterface gigabitethernet2/2\nswitchport description while-asleep\nend\n' |
    "$client" -e 127.0.0.1 "$TP" > "$work/asleep" 2>&1 || fail "a change during a sleep: $(cat "$work/asleep")"
t0=$SECONDS
serve_stop || fail "stop during a sleep: exit $?"
[ $((SECONDS - t0)) -le 3 ] || fail "stop during a sleep took $((SECONDS - t0)) s"
wait
printf 'show running-config interface gigabitethernet2/2\n' > "$work/show"
"$mdsim" --db "$work/lab.db" replay "$work/show" | grep -q "description while-asleep" ||
    fail "the change made during the sleep was lost"

# Port 0: two labs served side by side on ports the system picks, each
# printed in the start-up table, each reaching its own lab.
for lab in a b; do
    "$mdsim" --db "$work/$lab.db" serve --telnet-port 0 --ssh-port 0 > "$work/$lab.ports" 2> "$work/$lab.err" &
    echo $! >> "$work/pids"
    serve_pids="$serve_pids $!"
done
for lab in a b; do
    for _ in $(seq 100); do grep -q "serve: ready" "$work/$lab.err" && break; sleep 0.1; done
    printf 'configure terminal\nswitchname LAB-%s\nend\n' "$lab" > "$work/$lab.cmds"
    port=$(awk '$1 == "MDS2" { sub(/.*:/, "", $3); print $3 }' "$work/$lab.ports")
    [ -n "$port" ] || { fail "port 0: no MDS2 telnet port in $(cat "$work/$lab.ports")"; continue; }
    "$client" -e 127.0.0.1 "$port" < "$work/$lab.cmds" > /dev/null 2>&1 || fail "port 0: lab $lab on $port"
done
for lab in a b; do
    port=$(awk '$1 == "MDS2" { sub(/.*:/, "", $4); print $4 }' "$work/$lab.ports")
    ssh_as admin admin "$port" 'show switchname' | grep -q "^LAB-$lab" ||
        fail "port 0: lab $lab over SSH port $port is not LAB-$lab"
done
finish
