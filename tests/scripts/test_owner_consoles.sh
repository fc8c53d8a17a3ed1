#!/bin/bash
# One lab, one owner (docs/lab-owner.md): two consoles on one lab file run
# their sessions in the same process, so each sees the other's
# `switchname` at its next command and `show users` lists both (the
# switch's first console as ttyS0, the other as pts/N with its pid; `show
# terminal` names the same line). Once
# both have exited, the lab file is closed and its owner directory gone.
# (Before: each console had its own cache and saw only itself.)
# usage: test_owner_consoles.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
# a background owner's stderr is /dev/null: sanitizer reports go to files
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
db="$work/lab.db"

cat > "$work/a" <<SCRIPT
@timeout 60
configure terminal
switchname ALPHA
end
@touch $work/a1
@wait $work/b1
show switchname
show users
show terminal
@touch $work/a2
SCRIPT
cat > "$work/b" <<SCRIPT
@timeout 60
@wait $work/a1
show switchname
configure terminal
switchname BETA
end
show users
show terminal
@touch $work/b1
@wait $work/a2
SCRIPT
timeout 60 "$client" -c "$mdsim" "$db" < "$work/a" > "$work/a.out" 2>&1 &
apid=$!
timeout 60 "$client" -c "$mdsim" "$db" < "$work/b" > "$work/b.out" 2>&1 || fail "console B: $(cat "$work/b.out")"
wait "$apid" || fail "console A: $(cat "$work/a.out")"

grep -A1 '# show switchname$' "$work/b.out" | grep -qx 'ALPHA' ||
    fail "B did not see A's switchname: $(cat "$work/b.out")"
grep -A1 '^ALPHA# show switchname$' "$work/a.out" | grep -qx 'BETA' ||
    fail "A did not see B's switchname: $(cat "$work/a.out")"
grep -q '^BETA# show users$' "$work/a.out" || fail "A's prompt did not follow B's switchname: $(cat "$work/a.out")"
# show users: both sessions, one ttyS0 and one pts/0 naming its process
for f in a b; do
    users=$(sed -n '/show users$/,$p' "$work/$f.out" | grep '^admin')
    [ "$(echo "$users" | grep -c .)" -eq 2 ] || fail "$f: show users lists $(echo "$users" | grep -c .) sessions, want 2:
$users"
    echo "$users" | grep -Eq '^admin +ttyS0 ' || fail "$f: no ttyS0 in show users: $users"
    echo "$users" | grep -Eq '^admin +pts/0 .*\(pid [0-9]+\) session=console' || fail "$f: no pts/0 console: $users"
    [ "$(echo "$users" | grep -c ' \*$')" -eq 1 ] || fail "$f: not exactly one session marked *: $users"
    # show terminal names the line show users gives the session
    me=$(echo "$users" | grep ' \*$' | awk '{print $2}')
    grep -qx "TTY: /dev/$me Type: \"vt100\"" "$work/$f.out" ||
        fail "$f: show terminal does not say /dev/$me: $(grep TTY "$work/$f.out")"
done

# both gone: the owner closed the lab and left nothing beside it
sleep 0.2
[ -e "$db-owner" ] && fail "the owner directory is still there: $(ls -la "$db-owner")"
[ -e "$db-wal" ] && [ -s "$db-wal" ] && fail "the lab was not closed (a non-empty WAL is left)"
printf 'show switchname\n' | "$mdsim" --db "$db" | grep -qx BETA || fail "BETA was not saved in the lab"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
