#!/bin/bash
# The lab file holds password hashes and the SSH host private key: a new
# one is created 0600 whatever the umask, and so are its -wal and -shm; an
# existing one readable or writable by others is made 0600 with a warning
# when it is ours, and refused with a message when it is somebody else's.
# usage: test_labfile_mode.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
umask 022
mode() { stat -c %a "$1"; }
run() { echo 'show switchname' | "$mdsim" --db "$1" replay - > "$work/out" 2> "$work/err"; }

# A new lab, under umask 022.
run "$work/new.db" || fail "creating a lab: $(cat "$work/err")"
[ "$(mode "$work/new.db")" = 600 ] || fail "a new lab file is $(mode "$work/new.db")"
[ -s "$work/err" ] && fail "a new lab warned: $(cat "$work/err")"
# a lab from a topology file too
"$mdsim" --db "$work/topo.db" lab create "$(dirname "$0")/../../examples/labs/san-extension.lab" > /dev/null 2>&1 ||
    fail "lab create"
[ "$(mode "$work/topo.db")" = 600 ] || fail "a lab made by 'lab create' is $(mode "$work/topo.db")"

# Its -wal and -shm, while a server holds them open.
serve_start "$work/new.db" || fail "serve"
printf 'configure terminal\nswitchname WALTEST\nend\n' | "$client" -e 127.0.0.1 "$TP" > /dev/null || fail "a change"
for side in -wal -shm; do
    [ -e "$work/new.db$side" ] || { fail "no $side file while served"; continue; }
    [ "$(mode "$work/new.db$side")" = 600 ] || fail "the $side file is $(mode "$work/new.db$side")"
done
# one left readable by others is fixed by the next process opening the lab
chmod 644 "$work/new.db-wal"
run "$work/new.db" || fail "opening a served lab: $(cat "$work/err")"
[ "$(mode "$work/new.db-wal")" = 600 ] || fail "a 0644 -wal file stayed $(mode "$work/new.db-wal")"
grep -q "warning: .*new.db-wal was readable" "$work/err" || fail "no warning for the -wal file: $(cat "$work/err")"
serve_stop || fail "serve did not stop cleanly"

# An existing lab of ours, 0644 or 0660: made 0600, with a warning.
for m in 644 660 606; do
    chmod "$m" "$work/new.db"
    run "$work/new.db" || fail "opening a $m lab: $(cat "$work/err")"
    [ "$(mode "$work/new.db")" = 600 ] || fail "a $m lab file stayed $(mode "$work/new.db")"
    grep -q "warning: .*new.db was readable or writable by other users (mode 0$m); made it 0600" "$work/err" ||
        fail "no warning for a $m lab: $(cat "$work/err")"
done
run "$work/new.db"
[ -s "$work/err" ] && fail "a 0600 lab warned: $(cat "$work/err")"

# Somebody else's, readable by others: refused, left as it was.
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
    cp "$work/new.db" "$work/theirs.db"
    chown nobody "$work/theirs.db"
    chmod 644 "$work/theirs.db"
    run "$work/theirs.db" && fail "opened somebody else's 0644 lab"
    grep -q "theirs.db is readable or writable by other users (mode 0644) and is not yours; not opening it" "$work/err" ||
        fail "refusal message: $(cat "$work/err")"
    [ "$(mode "$work/theirs.db")" = 644 ] || fail "somebody else's lab was changed to $(mode "$work/theirs.db")"
    [ -e "$work/theirs.db-wal" ] && fail "somebody else's lab was opened (it has a -wal)"
fi
finish
