#!/bin/bash
# The same input gives the same output on the local console and in replay:
# every golden transcript, typed into `mdsim --db FILE --switch NAME` on a
# pseudo-terminal (tests/tools/mdsim_client -c: one console per switch,
# TERM=dumb, readline's echo and redisplay stripped), prints what
# `mdsim replay` prints, each on a fresh lab; a plain script too. The
# consoles run on virtual time (--speed 0) like replay, so `sleep 93784`
# is instant and clocks agree.
# usage: test_console_transcripts.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
"$mdsim" --db "$work/names.db" lab list > "$work/names" || fail "lab list"
names=$(awk 'NR > 1 { print $1 }' "$work/names" | paste -sd, -)

# Known console bugs (reported 2026-11-30; docs/telnet-ssh.md says consoles
# of one lab may run side by side): a console aborts with "store write
# failed: database is locked" on its first write after another console of
# the lab has written. These transcripts use two switches, so two consoles,
# and stop there. Each is still run: it must print replay's output up to
# that abort, and fails once it passes (then take it off this list).
locked="modes_and_prompts netsim_gating netsim_traffic save_and_reload show_hardware"
abort_line="mdsim: store write failed: database is locked"

# console FILE OUT [client options]: FILE through consoles on a fresh lab.
console() {
    local file=$1 out=$2
    shift 2
    rm -f "$work"/c.db*
    timeout 60 "$client" -c "$@" "$mdsim" "$work/c.db" --speed 0 < "$file" 2> "$work/err" |
        mask_time > "$out"
    return "${PIPESTATUS[0]}"
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
    console "$t" "$work/got" -t "$names"
    rc=$?
    n=$((n + 1))
    if [[ " $locked " == *" $name "* ]]; then
        lines=$(($(wc -l < "$work/got") - 1))
        if [ "$rc" -eq 0 ] && cmp -s "$work/exp" "$work/got"; then
            fail "$name now passes on the console: take it off the known-bug list"
        elif [ "$(tail -n 1 "$work/got")" = "$abort_line" ] &&
            cmp -s <(head -n "$lines" "$work/exp") <(head -n "$lines" "$work/got"); then
            echo "KNOWN BUG: $name: the console aborts after line $lines ($abort_line)"
        else
            fail "$name on the console differs from replay, and not as known:
$(diff -u "$work/exp" "$work/got" | head -40)
$(head -c 2000 "$work/err")"
        fi
        continue
    fi
    [ "$rc" -eq 0 ] || fail "$name on the console: client exit $rc: $(head -c 2000 "$work/err")"
    diff -u "$work/exp" "$work/got" > "$work/diff" || fail "$name on the console differs from replay:
$(head -40 "$work/diff")"
done
[ "$n" -ge 3 ] || fail "only $n transcripts found"

# Known console bug (reported 2026-11-30): `exit` at exec shows the prompt
# once more as the console ends, a line replay (and serve) do not print.
# Fails once it is fixed: then drop this check and add `exit` to the plain
# script below.
printf 'show switchname\nexit\nshow switchname\n' > "$work/exit"
expected "$work/exit" "$work/exp"
sed 's/^MDS1# exit$/&\nMDS1# /' "$work/exp" > "$work/want"
console "$work/exit" "$work/got" || fail "exit on the console: client exit $?: $(head -c 2000 "$work/err")"
if cmp -s "$work/exp" "$work/got"; then
    fail "exit on the console now prints what replay prints: drop the known-bug check"
elif cmp -s "$work/want" "$work/got"; then
    echo "KNOWN BUG: exit: the console shows its prompt once more as it ends"
else
    fail "exit on the console differs from replay, and not as known:
$(diff -u "$work/exp" "$work/got" | head -40)"
fi

# A plain script, with help at once (`?` without Enter), an error, a
# confirmation, a pager-sized output, users (alice's hash has a random
# salt: each run prints another) and virtual time.
cat > "$work/plain" <<'SCRIPT'
show switchname
configure terminal
username alice password s3cret role network-operator
interface gigabitethernet2/1
switchport description served
switchport mtu ?
end
show ?
show interface
show running-config | exclude alice
show user-account
bogus command
sleep 93784
show clock
show version | include uptime
copy running-config startup-config
reload
show running-config | include description
SCRIPT
expected "$work/plain" "$work/exp"
console "$work/plain" "$work/got" || fail "plain script on the console: client exit $?: $(head -c 2000 "$work/err")"
diff -u "$work/exp" "$work/got" > "$work/diff" || fail "plain script on the console differs:
$(head -40 "$work/diff")"
finish
