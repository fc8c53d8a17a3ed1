#!/bin/bash
# A command that lasts on real time (`ping`, `sleep`) shows its output as
# it comes and ends at Ctrl-C, on the local console (a pty: SIGINT), over
# telnet (0x03 and IAC IP) and over SSH (0x03); the session goes on. A
# line typed during `sleep` runs after it, as on a terminal.
# usage: test_interrupt.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"

# MDS1 g2/4 is cabled to MDS2 g2/2 in the default lab.
cat > "$work/setup.txt" <<'LAB'
MDS1# configure terminal
MDS1(config)# interface gigabitethernet 2/4
MDS1(config-if)# ip address 10.1.1.1 255.255.255.0
MDS1(config-if)# no shutdown
MDS2# configure terminal
MDS2(config)# interface gigabitethernet 2/2
MDS2(config-if)# ip address 10.1.1.2 255.255.255.0
MDS2(config-if)# no shutdown
LAB
"$mdsim" --db "$work/lab.db" replay "$work/setup.txt" > /dev/null || fail "setup"

# Each script: a ping of 100 s stopped after two replies (the replies
# must show as they come, or the second is never seen), a sleep of 100 s
# stopped at once, then a command that proves the session is still there.
# mdsim_client's @expect fails the client (exit 2) after 15 s.
interrupt_script() { # $1: how the interrupt is sent
    cat <<SCRIPT
@send ping 10.1.1.2 count 100\r
@expect icmp_seq=1 
@send $1
@expect packets received, 0.00% packet loss
@expect MDS1# 
@send sleep 100\r
@pause 300
@send $1
@expect MDS1# 
show switchname
SCRIPT
}

# check NAME OUT STATUS
check() {
    local name=$1 out=$2 rc=$3
    [ "$rc" -eq 0 ] || { fail "$name: client exit $rc: $(tail -5 "$out")"; return; }
    grep -q '^MDS1$' "$out" || fail "$name: no session after the interrupts: $(tail -5 "$out")"
}

start=$(date +%s)
timeout 60 "$client" -c -x "$mdsim" "$work/lab.db" < <(interrupt_script '\x03') > "$work/con" 2>&1
check console "$work/con" $?

serve_start "$work/lab.db" || { fail "serve"; finish; }
timeout 60 "$client" -x 127.0.0.1 "$TP" < <(interrupt_script '\x03') > "$work/tn" 2>&1
check "telnet Ctrl-C" "$work/tn" $?
timeout 60 "$client" -x 127.0.0.1 "$TP" < <(interrupt_script '\xff\xf4') > "$work/ip" 2>&1
check "telnet IAC IP" "$work/ip" $?
timeout 60 "$client" -x -s 127.0.0.1 "$SP" < <(interrupt_script '\x03') > "$work/ssh" 2>&1
check "SSH Ctrl-C" "$work/ssh" $?

# More type-ahead than the input buffer holds, then Ctrl-C: still seen.
{
    printf '@expect MDS1# \n' # the login's prompt, out of the way of the last @expect
    printf '@send sleep 100\\r\n@pause 300\n@send %s\n' "$(head -c 3000 /dev/zero | tr '\0' a)"
    printf '@send \\x03\n@expect MDS1# \nshow switchname\n'
} > "$work/flood"
timeout 60 "$client" -x 127.0.0.1 "$TP" < "$work/flood" > "$work/flood.out" 2>&1
check "Ctrl-C after a full buffer" "$work/flood.out" $?

# Type-ahead: the line typed during a sleep runs when it ends.
printf '@send sleep 1\\rshow switchname\\r\n@expect MDS1\\r\n@sync\n' |
    timeout 30 "$client" 127.0.0.1 "$TP" > "$work/ahead" 2>&1 || fail "type-ahead: $(cat "$work/ahead")"
[ $(($(date +%s) - start)) -lt 100 ] || fail "the interrupted commands ran to their end"
grep -q -e Sanitizer -e 'runtime error' "$SERVE_ERR" && fail "serve: $(grep -A5 -e Sanitizer -e 'runtime error' "$SERVE_ERR")"
finish
