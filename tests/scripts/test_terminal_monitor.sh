#!/bin/bash
# `terminal monitor` (docs/logging.md): a telnet session that asked for it
# is shown, as they happen, the messages of its switch within `logging
# monitor`, each on its own line, then its prompt and what it had typed
# so far again; after `terminal no monitor` it is shown none. The console
# is shown those within `logging console` (here set to 5). The emitter is
# another session leaving configuration mode (%VSHD-5-VSHD_SYSLOG_CONFIG_I).
# usage: test_terminal_monitor.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
serve_start "$work/lab.db" || { fail "serve"; finish; }
f="$work/flag"
msg="%VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on 127.0.0.1@pts/"

# A monitors, half-way through typing a command when the message comes.
cat > "$work/a" <<SCRIPT
terminal monitor
@send show swi
@touch $f.a1
@expect $msg
@expect MDS1# show swi
@send tchname\r
@expect MDS1
@sync
terminal no monitor
@touch $f.a2
@wait $f.b2
show logging last 1 | count
show switchname
SCRIPT
# B configures: once while A monitors, once after it stopped.
cat > "$work/b" <<SCRIPT
@wait $f.a1
configure terminal
logging console 5
end
@wait $f.c1
@wait $f.a2
configure terminal
switchname MDSX
end
@touch $f.b2
SCRIPT
timeout 60 "$client" 127.0.0.1 "$TP" < "$work/a" > "$work/a.out" 2>&1 &
apid=$!
timeout 60 "$client" -e 127.0.0.1 "$TP" < "$work/b" > "$work/b.out" 2>&1 &
bpid=$!
# The console, attached to the serving process: logging console 5 from
# B's first session on, so it is shown B's second message.
cat > "$work/c" <<SCRIPT
@wait $f.a1
@touch $f.c1
@expect %VSHD-5-VSHD_SYSLOG_CONFIG_I: Configured from vty by admin on 127.0.0.1@pts/
@sync
SCRIPT
timeout 60 "$client" -c "$mdsim" "$work/lab.db" < "$work/c" > "$work/c.out" 2>&1 || fail "console: $(cat "$work/c.out")"
wait $bpid || fail "session B: $(cat "$work/b.out")"
wait $apid || fail "session A: $(cat "$work/a.out")"
grep -q "^MDSX$" "$work/a.out" || fail "A ran its commands after B's: $(cat "$work/a.out")"
grep -q "MDSX %VSHD" "$work/a.out" && fail "A was shown a message after terminal no monitor: $(cat "$work/a.out")"
[ "$(grep -c "^1$" "$work/a.out")" = 1 ] || fail "the second message was logged: $(cat "$work/a.out")"
finish
