#!/bin/bash
# The same input gives the same output on the local console and in replay:
# every golden transcript, typed into `mdsim --db FILE --switch NAME` on a
# pseudo-terminal (tests/tools/mdsim_client -c: one console per switch,
# TERM=dumb, the console's echo and redisplay stripped), prints what
# `mdsim replay` prints, each on a fresh lab; a plain script too. The
# consoles run on virtual time (--speed 0) like replay, so `sleep 93784`
# is instant and clocks agree.
# usage: test_console_transcripts.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
"$mdsim" --db "$work/names.db" lab list > "$work/names" || fail "lab list"
names=$(awk 'NR > 1 { print $1 }' "$work/names" | paste -sd, -)

# Several consoles share one lab file (one per switch), as several
# people may: a console must not keep a read transaction open at its
# prompt (it aborted with "database is locked" on its next write).

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
    [ "$rc" -eq 0 ] || fail "$name on the console: client exit $rc: $(head -c 2000 "$work/err")"
    diff -u "$work/exp" "$work/got" > "$work/diff" || fail "$name on the console differs from replay:
$(head -40 "$work/diff")"
done
[ "$n" -ge 3 ] || fail "only $n transcripts found"

# A plain script, with help at once (`?` without Enter), an error, a
# confirmation, a pager-sized output, users (alice's hash has a random
# salt: each run prints another), virtual time, and `exit` at exec, after
# which the console prints nothing more (it drew its prompt once more).
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
exit
SCRIPT
expected "$work/plain" "$work/exp"
console "$work/plain" "$work/got" || fail "plain script on the console: client exit $?: $(head -c 2000 "$work/err")"
diff -u "$work/exp" "$work/got" > "$work/diff" || fail "plain script on the console differs:
$(head -40 "$work/diff")"
finish
