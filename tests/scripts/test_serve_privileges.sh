#!/bin/bash
# Privileges follow the store at every command: a session whose user is
# made network-operator stops configuring at its next line (and leaves
# config mode), and a deleted user's open sessions end with a message,
# at the next line or, idle at the prompt, within seconds; telnet and SSH.
# usage: test_serve_privileges.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
serve_start "$work/lab.db" || { fail "serve"; finish; }
f="$work/sync"

printf 'configure terminal\nusername bob password B0bPassw0rd role network-admin\nusername carol password C4rolPassw0rd role network-admin\nend\n' |
    "$client" -e 127.0.0.1 "$TP" > "$work/out" || fail "creating users: $(cat "$work/out")"

# bob, in config mode over telnet, is made an operator, then deleted.
cat > "$work/bob" <<SCRIPT
configure terminal
@touch $f.config
@wait $f.demoted
switchname HACKED
interface gigabitethernet 2/3
show switchname
configure terminal
@touch $f.checked
@wait $f.deleted
show switchname
SCRIPT
cat > "$work/admin" <<SCRIPT
@wait $f.config
configure terminal
username bob role network-operator
end
@touch $f.demoted
@wait $f.checked
configure terminal
no username bob
end
@touch $f.deleted
SCRIPT
timeout 60 "$client" -u bob -p B0bPassw0rd 127.0.0.1 "$TP" < "$work/bob" > "$work/bob.out" 2>&1 &
bob=$!
timeout 60 "$client" -e 127.0.0.1 "$TP" < "$work/admin" > "$work/admin.out" 2>&1 || fail "admin: $(cat "$work/admin.out")"
wait "$bob"
grep -A1 "switchname HACKED" "$work/bob.out" | grep -q "% Permission denied" ||
    fail "a demoted session kept configuring: $(cat "$work/bob.out")"
grep -A1 "interface gigabitethernet 2/3" "$work/bob.out" | grep -q "^MDS1# interface" ||
    grep -A1 "interface gigabitethernet 2/3" "$work/bob.out" | grep -q "Invalid command" ||
    fail "a demoted session stayed in config mode: $(cat "$work/bob.out")"
grep -A1 "^MDS1# configure terminal" "$work/bob.out" | grep -q "% Permission denied" ||
    fail "a demoted session entered config mode: $(cat "$work/bob.out")"
grep -q "User bob has been deleted, logging out." "$work/bob.out" ||
    fail "a deleted user's session went on: $(cat "$work/bob.out")"
grep -q "^MDS1$" <(sed -n '/User bob has been deleted/,$p' "$work/bob.out") &&
    fail "a deleted user's command ran: $(cat "$work/bob.out")"
out=$(ssh_as admin admin "$SP" 'show switchname')
[ "$out" = "MDS1" ] || fail "the demoted session renamed the switch: '$out'"

# carol sits idle at her prompt, over SSH; deleted, she is logged out
# within seconds, without typing anything.
cat > "$work/carol" <<SCRIPT
@timeout 20
@touch $f.carol
@expect has been deleted, logging out.
SCRIPT
timeout 60 "$client" -s -u carol -p C4rolPassw0rd 127.0.0.1 "$SP" < "$work/carol" > "$work/carol.out" 2>&1 &
carol=$!
for _ in $(seq 150); do [ -e "$f.carol" ] && break; sleep 0.1; done
printf 'configure terminal\nno username carol\nend\n' | "$client" -e 127.0.0.1 "$TP" > "$work/out" ||
    fail "deleting carol: $(cat "$work/out")"
wait "$carol" || fail "an idle session of a deleted user was not logged out: $(cat "$work/carol.out")"
ssh_as carol C4rolPassw0rd "$SP" 'show switchname' > /dev/null 2>&1 && fail "carol logs in after her deletion"

# dave sits at the --More-- of `?`'s help when he is deleted: logged out
# too, and the page he was shown is not disturbed (the message has its own
# buffer).
printf 'configure terminal\nusername dave password D4vePassw0rd role network-admin\nend\n' |
    "$client" -e 127.0.0.1 "$TP" > "$work/out" || fail "creating dave: $(cat "$work/out")"
cat > "$work/dave" <<SCRIPT
@timeout 20
terminal length 5
@send ?
@expect --More--
@touch $f.dave
@expect has been deleted, logging out.
SCRIPT
timeout 60 "$client" -x -u dave -p D4vePassw0rd 127.0.0.1 "$TP" < "$work/dave" > "$work/dave.out" 2>&1 &
dave=$!
for _ in $(seq 150); do [ -e "$f.dave" ] && break; sleep 0.1; done
printf 'configure terminal\nno username dave\nend\n' | "$client" -e 127.0.0.1 "$TP" > "$work/out" ||
    fail "deleting dave: $(cat "$work/out")"
wait "$dave" || fail "a deleted user at --More-- was not logged out: $(cat "$work/dave.out")"
kill -0 "$SERVE_PID" 2> /dev/null || fail "serve died logging out a user at --More--"

# A name of the full 32 characters keeps its session (not cut to 31 and
# then taken for deleted).
long=abcdefghijklmnopqrstuvwxyz012345
printf 'configure terminal\nusername %s password L0ngPassw0rd role network-admin\nend\n' "$long" |
    "$client" -e 127.0.0.1 "$TP" > "$work/out" || fail "creating a 32-character user: $(cat "$work/out")"
out=$(ssh_as "$long" L0ngPassw0rd "$SP" 'show switchname')
[ "$out" = "MDS1" ] || fail "a 32-character user: '$out'"

serve_stop || fail "serve did not stop cleanly"
grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$SERVE_ERR" && fail "sanitizer report"
finish
