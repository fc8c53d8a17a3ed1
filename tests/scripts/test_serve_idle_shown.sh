#!/bin/bash
# `show terminal` shows the idle timeout that applies to the session:
# `serve --idle-timeout` until the switch has `line vty` `exec-timeout`,
# which then wins (0 = none); the console shows `line console`'s.
# usage: test_serve_idle_shown.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
timeout_of() { grep "Session Timeout" "$1" | tail -1; }

serve_start "$work/lab.db" --idle-timeout 90 || { fail "serve"; finish; }
printf 'show terminal\n' | "$client" 127.0.0.1 "$TP" > "$work/out" || fail "telnet"
[ "$(timeout_of "$work/out")" = "Session Timeout: 90 seconds" ] || fail "serve --idle-timeout 90: $(timeout_of "$work/out")"
printf 'configure terminal\nline vty\nexec-timeout 5\nend\nshow terminal\n' | "$client" -e 127.0.0.1 "$TP" > "$work/out" ||
    fail "exec-timeout: $(cat "$work/out")"
[ "$(timeout_of "$work/out")" = "Session Timeout: 5 minutes" ] || fail "after exec-timeout 5: $(timeout_of "$work/out")"
out=$(ssh_as admin admin "$SP" 'show terminal' | grep "Session Timeout")
[ "$out" = "Session Timeout: 5 minutes" ] || fail "ssh after exec-timeout 5: $out"
printf 'configure terminal\nline vty\nexec-timeout 0\nend\nshow terminal\n' | "$client" -e 127.0.0.1 "$TP" > "$work/out" ||
    fail "exec-timeout 0: $(cat "$work/out")"
[ "$(timeout_of "$work/out")" = "Session Timeout: None" ] || fail "after exec-timeout 0: $(timeout_of "$work/out")"
printf 'configure terminal\nline vty\nno exec-timeout\nend\nshow terminal\n' | "$client" -e 127.0.0.1 "$TP" > "$work/out" ||
    fail "no exec-timeout: $(cat "$work/out")"
[ "$(timeout_of "$work/out")" = "Session Timeout: 90 seconds" ] || fail "after no exec-timeout: $(timeout_of "$work/out")"
serve_stop || fail "serve did not stop cleanly"

serve_start "$work/lab.db" || { fail "serve 2"; finish; }
printf 'show terminal\n' | "$client" 127.0.0.1 "$TP" > "$work/out" || fail "telnet 2"
[ "$(timeout_of "$work/out")" = "Session Timeout: 30 minutes" ] || fail "the default: $(timeout_of "$work/out")"
serve_stop || fail "serve 2 did not stop cleanly"

# The console: `line console` `exec-timeout`, none by default.
printf 'show terminal\nconfigure terminal\nline console\nexec-timeout 7\nend\nshow terminal\n' |
    timeout 60 "$client" -c "$mdsim" "$work/lab.db" > "$work/out" 2>&1 || fail "console: $(cat "$work/out")"
grep "Session Timeout" "$work/out" | head -1 | grep -q "Session Timeout: None" || fail "console default: $(cat "$work/out")"
[ "$(timeout_of "$work/out")" = "Session Timeout: 7 minutes" ] || fail "console exec-timeout 7: $(cat "$work/out")"
finish
