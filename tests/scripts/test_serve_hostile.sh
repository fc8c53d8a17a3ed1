#!/bin/bash
# Hostile peers do not stop the daemon serving others: garbage and cut
# telnet IAC sequences, negotiation floods, a 100 KB line, peers leaving
# mid-command and at --More--, garbage on the SSH port, idle connections,
# and SSH clients offering only old algorithms (refused by the server).
# usage: test_serve_hostile.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
serve_start "$work/lab.db" || { fail "serve"; finish; }

# send PORT FILE: bytes to a port, then hang up.
send() { timeout 10 bash -c "cat '$2' > /dev/tcp/127.0.0.1/$1" 2> /dev/null; }
alive() {
    kill -0 "$SERVE_PID" 2> /dev/null || { fail "serve died after $1"; return; }
    printf 'show switchname\n' | timeout 30 "$client" -e 127.0.0.1 "$TP" > "$work/alive" 2>&1 ||
        fail "no service after $1: $(cat "$work/alive")"
}

head -c 65536 /dev/urandom > "$work/garbage"
send "$TP" "$work/garbage"; alive "telnet garbage"
printf '\377' > "$work/iac1"; send "$TP" "$work/iac1"; alive "a lone IAC"
printf '\377\372\037\000' > "$work/iac2"; send "$TP" "$work/iac2"; alive "a cut IAC SB NAWS"
printf '\377\375' > "$work/iac3"; send "$TP" "$work/iac3"; alive "IAC DO without option"
{ printf '\377\372'; head -c 5000 /dev/zero | tr '\0' 'A'; printf '\r\n'; } > "$work/iac4"
send "$TP" "$work/iac4"; alive "an IAC SB without SE"
for _ in $(seq 2000); do printf '\377\373\030\377\375\047'; done > "$work/iac5"
send "$TP" "$work/iac5"; alive "a negotiation flood"
printf 'admin\r\nadmin\r\nshow running-config\r\n' > "$work/mid"; send "$TP" "$work/mid"
alive "a peer leaving mid-command"
printf '@send show interface\\r\n@expect --More--\n' |
    timeout 30 "$client" -x 127.0.0.1 "$TP" > "$work/more" 2>&1 || fail "no --More--: $(cat "$work/more")"
alive "a peer leaving at --More--"
send "$SP" "$work/garbage"; alive "SSH garbage"
printf 'SSH-2.0-OpenSSH_9.2\r\n' > "$work/sshcut"; send "$SP" "$work/sshcut"; alive "a cut SSH handshake"

# A 100 KB line: refused whole, the session goes on (telnet and SSH).
line=$(head -c 102400 /dev/zero | tr '\0' 'x')
printf '@send %s\\r\n@expect Line too long\n@sync\nshow switchname\n' "$line" |
    timeout 30 "$client" 127.0.0.1 "$TP" > "$work/long" 2>&1 || fail "100 KB line over telnet: $(tail -c 300 "$work/long")"
printf '%s\nshow switchname\n' "$line" | ssh_as admin admin "$SP" -T > "$work/long" 2>&1
grep -q "Line too long" "$work/long" && grep -q "^MDS1$" "$work/long" ||
    fail "100 KB line over ssh: $(tail -c 300 "$work/long")"
alive "100 KB lines"

# Idle connections do not block others.
for i in $(seq 20); do exec {fd}<> "/dev/tcp/127.0.0.1/$TP"; idle="$idle $fd"; done
alive "20 idle connections"
for fd in $idle; do exec {fd}>&-; done

# Old algorithms only: the server refuses them, OpenSSH 9 says why.
old() {
    ssh -o BatchMode=yes -o LogLevel=info $SSHO "$@" -p "$SP" admin@127.0.0.1 true > "$work/old" 2>&1 &&
        fail "connected with $*"
    # what the server said of it, should the client's words be missing
    tail -n 3 "$SERVE_ERR" >> "$work/old"
}
old -o KexAlgorithms=diffie-hellman-group1-sha1
grep -q "no matching key exchange method" "$work/old" || fail "old kex: $(cat "$work/old")"
old -o KexAlgorithms=diffie-hellman-group14-sha1
grep -q "no matching key exchange method" "$work/old" || fail "sha1 kex: $(cat "$work/old")"
old -o Ciphers=aes128-cbc,3des-cbc
grep -q "no matching cipher" "$work/old" || fail "old ciphers: $(cat "$work/old")"
old -o Ciphers=aes128-ctr -o MACs=hmac-sha1,hmac-md5
grep -q "no matching MAC" "$work/old" || fail "old MACs: $(cat "$work/old")"
old -o HostKeyAlgorithms=ssh-rsa,ssh-dss
grep -q "no matching host key type" "$work/old" || fail "old host keys: $(cat "$work/old")"
ssh_as admin admin "$SP" 'show switchname' > /dev/null || fail "default OpenSSH options refused"
alive "old SSH clients"

n=$(grep -c "telnet connection to" "$SERVE_ERR")
[ "$n" -ge 30 ] || fail "only $n telnet connections reached the server"
serve_stop || fail "serve did not stop cleanly"
grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$SERVE_ERR" && fail "sanitizer report"
finish
