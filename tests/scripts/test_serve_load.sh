#!/bin/bash
# Load: 50 sessions at once, telnet and SSH mixed, on the four switches of
# a lab, each making 20 changes (user accounts) and reading them back, for
# a bounded time. No command may fail and no change may be lost. Then
# SIGTERM with sessions still busy: serve stops cleanly and the lab file
# opens with every change in it.
# usage: test_serve_load.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
SESSIONS=50
CHANGES=20
HASH='$5$mdsimdflt$UbI4IL0IijurABPLFme/lvSy4kHp84ueNzE2hBYrNt5'
cat > "$work/four.lab" <<'LAB'
seed 7
switch S1 chassis DS-C9509
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
switch S2 chassis DS-C9509
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
switch S3 chassis DS-C9509
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
switch S4 chassis DS-C9509
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
LAB
db="$work/lab.db"
"$mdsim" --db "$db" lab create "$work/four.lab" > /dev/null || { fail "lab create"; finish; }
serve_start "$db" || { fail "serve"; finish; }

# session I: switch I % 4, telnet when I is even, SSH when odd.
script() {
    local i=$1 k
    echo "configure terminal"
    for k in $(seq "$CHANGES"); do
        echo "username u${i}x$k password 5 $HASH role network-operator"
        [ $((k % 5)) -eq 0 ] && echo "do show user-account | include user:u${i}x | count"
    done
    echo "end"
    echo "show users | count"
}

start=$(date +%s)
pids=""
for i in $(seq 0 $((SESSIONS - 1))); do
    script "$i" > "$work/s$i"
    sw=$((i % 4))
    if [ $((i % 2)) -eq 0 ]; then set -- 127.0.0.1 $((TP + sw)); else set -- -s 127.0.0.1 $((SP + sw)); fi
    timeout 60 "$client" -e "$@" < "$work/s$i" > "$work/o$i" 2>&1 &
    pids="$pids $!"
done
i=0
for p in $pids; do
    wait "$p" || fail "session $i failed: $(tail -5 "$work/o$i")"
    i=$((i + 1))
done
took=$(($(date +%s) - start))
echo "$SESSIONS sessions, $((SESSIONS * CHANGES)) changes in ${took}s"
[ "$took" -le 20 ] || fail "the load took ${took}s (limit 20)"
# a session saw its own changes as it went
grep -q "^$CHANGES\$" "$work/o0" || fail "session 0 did not count its changes: $(cat "$work/o0")"

# every change is there, on the switch it was made on
count_users() { # SWITCH-INDEX PORT-OPTIONS...
    printf 'show user-account | include user:u | count\n' | "$client" "$@" | sed -n 2p
}
for sw in 0 1 2 3; do
    want=$(((SESSIONS - sw + 3) / 4 * CHANGES))
    got=$(count_users 127.0.0.1 $((TP + sw)))
    [ "$got" = "$want" ] || fail "switch $sw has $got user accounts, not $want"
done
grep -E "AddressSanitizer|runtime error" "$SERVE_ERR" && fail "sanitizer report"

# SIGTERM under load: a clean stop, a lab file with everything in it.
printf 'show user-account | count\nshow running-config\n' > "$work/busy"
for i in $(seq 0 9); do
    timeout 60 "$client" -q -d 10 127.0.0.1 $((TP + i % 4)) < "$work/busy" > /dev/null 2>&1 &
done
sleep 1
t0=$(date +%s)
serve_stop || fail "serve did not stop cleanly under load"
[ $(($(date +%s) - t0)) -le 12 ] || fail "stopping took too long"
wait # the busy clients end when the server goes
printf 'show user-account | include user:u | count\n' > "$work/check"
got=$("$mdsim" --db "$db" --switch S1 replay "$work/check" | sed -n 2p)
[ "$got" = $(((SESSIONS + 3) / 4 * CHANGES)) ] || fail "after the stop, S1 has $got accounts in the file"
finish
