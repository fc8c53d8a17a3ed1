#!/bin/bash
# Logins and roles: a wrong password is refused (telnet and SSH) after a
# delay; network-operator cannot enter config mode; passwords are stored
# only as hashes; the default admin/admin keeps serve on loopback until
# changed; a second serve of the same lab is refused; the SSH host key is
# generated once and kept in the lab.
# usage: test_serve_auth.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
db="$work/lab.db"
serve_start "$db" || { fail "serve"; finish; }

# Wrong passwords: refused, the session never starts.
printf 'show switchname\n' | timeout 60 "$client" -p wrong 127.0.0.1 "$TP" > "$work/out" 2>&1 &&
    fail "telnet with a wrong password got in: $(cat "$work/out")"
ssh_as admin wrong "$SP" 'show switchname' > "$work/out" 2>&1 && fail "ssh with a wrong password got in"
grep -q "Permission denied" "$work/out" || fail "ssh wrong password: $(cat "$work/out")"
ssh_as nobody admin "$SP" 'show switchname' > /dev/null 2>&1 && fail "ssh as an unknown user got in"
grep -q "failed ssh login" "$SERVE_ERR" || fail "failed logins are not logged"
# the second failure in a row waits longer than the first
start=$(date +%s%N)
ssh_as admin wrong "$SP" 'show switchname' > /dev/null 2>&1
took=$((($(date +%s%N) - start) / 1000000))
[ "$took" -ge 900 ] || fail "repeated failure answered in ${took} ms, not delayed"
ssh_as admin admin "$SP" 'show switchname' > /dev/null || fail "admin/admin refused after failures"

# An operator: shows yes, configuration no.
cat > "$work/mkop" <<'SCRIPT'
configure terminal
username oper password 0 Op3rat0r! role network-operator
username bob password Secr3tPw
san-ext-tuner enable
end
SCRIPT
"$client" -e 127.0.0.1 "$TP" < "$work/mkop" > "$work/out" || fail "creating users: $(cat "$work/out")"
printf 'show switchname\nconfigure terminal\n' | "$client" -u oper -p 'Op3rat0r!' 127.0.0.1 "$TP" > "$work/out" ||
    fail "operator login over telnet"
grep -q "% Permission denied" "$work/out" || fail "operator entered config mode: $(cat "$work/out")"
out=$(ssh_as oper 'Op3rat0r!' "$SP" 'configure terminal')
[ "$out" = "% Permission denied" ] || fail "operator over ssh exec: '$out'"
# nor any exec command that changes the switch (confirmations are answered
# yes on exec requests, so nothing else would stop them)
for cmd in 'copy running-config startup-config' 'write erase' 'reload' 'clock set 10:00:00 1 January 2026' \
    'ips netsim enable interface gigabitethernet 2/2 gigabitethernet 2/3'; do
    out=$(ssh_as oper 'Op3rat0r!' "$SP" "$cmd")
    [ "$out" = "% Permission denied" ] || fail "operator ran '$cmd': '$out'"
done
ssh_as oper 'Op3rat0r!' "$SP" 'show user-account' | grep -q "user:bob" || fail "the operator's denied commands changed the switch"
out=$(ssh_as bob Secr3tPw "$SP" 'configure terminal')
[ "$out" = "% Permission denied" ] || fail "a new user without a role is not an operator: '$out'"
# an exec request shows no prompt: the caret counts from the command's start
ssh_as admin admin "$SP" 'show foo' > "$work/out"
[ "$(head -1 "$work/out")" = "      ^" ] || fail "caret of an exec request: $(cat "$work/out")"
ssh_as admin admin "$SP" 'show user-account' > "$work/out"
grep -q "user:oper" "$work/out" && grep -q "roles:network-operator" "$work/out" ||
    fail "show user-account: $(cat "$work/out")"

# Only hashes in the lab file.
serve_stop || fail "serve did not stop cleanly"
cat "$db"* | grep -a -c -e 'Op3rat0r' -e 'Secr3tPw' > "$work/n"
[ "$(cat "$work/n")" = 0 ] || fail "a password is in the lab file in clear"
cat "$db"* | grep -a -q '\$5\$' || fail "no SHA-256 crypt hash in the lab file"

# Host key: made once, the same after a restart.
serve_start "$db" || fail "restart"
timeout 10 ssh-keyscan -t ed25519 -p "$SP" 127.0.0.1 2> /dev/null | awk '{print $3}' > "$work/key1"
[ -s "$work/key1" ] || fail "no ed25519 host key offered"
# a second serve of the same lab is refused with a message
"$mdsim" --db "$db" serve --telnet-port $((TP + 40)) --ssh-port $((SP + 40)) > /dev/null 2> "$work/second" &&
    fail "a second serve of the lab started"
grep -q "already served" "$work/second" || fail "second serve: $(cat "$work/second")"
# not on a public address while admin/admin works
serve_stop
"$mdsim" --db "$db" serve --bind 0.0.0.0 --telnet-port "$TP" --ssh-port "$SP" > /dev/null 2> "$work/public" &&
    fail "served on 0.0.0.0 with the default admin password"
grep -q "default password" "$work/public" || fail "public bind refusal: $(cat "$work/public")"
serve_start "$db" || fail "restart 2"
timeout 10 ssh-keyscan -t ed25519 -p "$SP" 127.0.0.1 2> /dev/null | awk '{print $3}' > "$work/key2"
cmp -s "$work/key1" "$work/key2" || fail "the host key changed across restarts"
printf 'configure terminal\nusername admin password N3wAdm1n\nend\n' |
    "$client" -e 127.0.0.1 "$TP" > /dev/null || fail "changing admin's password on MDS1"
printf 'configure terminal\nusername admin password N3wAdm1n\nend\n' |
    "$client" -e 127.0.0.1 $((TP + 1)) > /dev/null || fail "changing admin's password on MDS2"
ssh_as admin admin "$SP" 'show switchname' > /dev/null 2>&1 && fail "the old admin password still works"
ssh_as admin N3wAdm1n "$SP" 'show switchname' > /dev/null || fail "the new admin password does not work"
serve_stop
# with the default gone, a non-loopback address is allowed (an unused port on
# all addresses for a moment; it is stopped at once)
serve_start "$db" --bind 0.0.0.0 || fail "public bind refused after the password change"
serve_stop
finish
