#!/bin/bash
# The same input gives the same output over telnet, SSH and replay: every
# golden transcript, run through `mdsim serve` by telnet and by SSH with a
# pty (tests/tools/mdsim_client strips echo and redisplay), prints what
# `mdsim replay` prints; a plain script through OpenSSH without a pty too;
# and an exec request runs one command. The server runs on virtual time
# (--speed 0) like replay, so `sleep 93784` is instant and clocks agree.
# usage: test_serve_transcripts.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
"$mdsim" --db "$work/names.db" lab list > "$work/names" || fail "lab list"
names=$(awk 'NR > 1 { print $1 }' "$work/names" | paste -sd, -)

# through MODE (telnet|ssh) FILE OUT [client options]: FILE on a fresh lab.
through() {
    local mode=$1 file=$2 out=$3 port
    shift 3
    rm -f "$work"/s.db*
    serve_start "$work/s.db" --speed 0 || return 1
    if [ "$mode" = ssh ]; then set -- -s "$@"; port=$SP; else port=$TP; fi
    timeout 120 "$client" "$@" 127.0.0.1 "$port" < "$file" | mask_time > "$out"
    serve_stop
}

expected() {
    rm -f "$work"/r.db*
    "$mdsim" --db "$work/r.db" replay "$1" 2> /dev/null | mask_time > "$2"
}

n=0
for t in "$root"/tests/transcripts/*.txt; do
    name=$(basename "$t" .txt)
    expected "$t" "$work/exp"
    [ -s "$work/exp" ] || { fail "$name: replay printed nothing"; continue; }
    for mode in telnet ssh; do
        through $mode "$t" "$work/got" -t "$names" || fail "$name over $mode: serve failed"
        diff -u "$work/exp" "$work/got" > "$work/diff" || fail "$name over $mode differs from replay:
$(head -40 "$work/diff")"
    done
    n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n transcripts found"

# A plain script, with help, an error, a pager-sized output and users
# (alice's hash has a random salt: each run prints another).
cat > "$work/plain" <<'SCRIPT'
show switchname
configure terminal
username alice password s3cret role network-operator
interface gigabitethernet2/1
switchport description served
show ?
end
show interface
show running-config | exclude alice
show user-account
bogus command
SCRIPT
expected "$work/plain" "$work/exp"
for mode in telnet ssh; do
    through $mode "$work/plain" "$work/got" || fail "plain script over $mode: serve failed"
    diff -u "$work/exp" "$work/got" > "$work/diff" || fail "plain script over $mode differs:
$(head -40 "$work/diff")"
done

# OpenSSH without a pty: the batch transcript; with a command: exec.
rm -f "$work"/s.db*
serve_start "$work/s.db" || fail "serve"
ssh_as admin admin "$SP" -T < "$work/plain" | mask_time > "$work/got"
diff -u "$work/exp" "$work/got" > "$work/diff" || fail "ssh -T differs from replay:
$(head -40 "$work/diff")"
out=$(ssh_as admin admin "$SP" 'show switchname')
[ "$out" = "$(awk 'NR == 2 { print $2 }' "$work/names")" ] || fail "exec request: got '$out'"
ssh_as admin admin "$SP" -tt 'show switchname' < /dev/null | od -c | grep -q '\\r  *\\n' ||
    fail "exec with a pty: lines do not end in CR LF"
ssh_as admin admin "$SP" 'bogus' > "$work/bogus" && fail "exec of a bad command exited 0"
grep -q "% Invalid command" "$work/bogus" || fail "exec of a bad command: $(cat "$work/bogus")"
out=$(ssh_as admin admin $((SP + 1)) 'show switchname')
[ "$out" = "$(awk 'NR == 3 { print $2 }' "$work/names")" ] || fail "exec on the second switch: got '$out'"
serve_stop || fail "serve did not stop cleanly"
finish
