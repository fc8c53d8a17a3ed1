#!/bin/bash
# A full disk is an error, not a crash (DESIGN rule 10, docs/durability.md):
# `mdsim serve` on a lab in a small tmpfs that fills up.
# - a served command that needs room fails with `% Lab storage full,
#   nothing changed`, and changes nothing; `copy running-config
#   startup-config` says so instead of `Copy complete.`;
# - the server goes on: the same process answers new sessions, and tells
#   its operator once that the storage refuses writes;
# - `delete bootflash:NAME` works on the full disk (the lab's reserve);
# - once the host frees space, writes work again, which serve also says.
# (Before, the first refused write aborted the server.)
# Needs root to mount a tmpfs (CI runs the tests as root): skipped without.
# usage: test_disk_full.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
disk="$work/disk"
mkdir "$disk"
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=8m,mode=0700 mdsim-test "$disk" 2> /dev/null; then
    echo "SKIP: cannot mount a tmpfs (needs root)"
    exit 77
fi
# unmounted before serve_lib's cleanup removes $work
trap 'for p in $serve_pids; do kill -KILL "$p" 2> /dev/null; done; sleep 0.2; umount -l "$disk"; cleanup' EXIT
db="$disk/lab.db"
telnet() { timeout 90 "$client" 127.0.0.1 "$TP"; }

serve_start "$db" || { fail "serve"; finish; }
[ -f "$db-reserve" ] || fail "no reserve beside the lab: $(ls -la "$disk")"
printf 'configure terminal\nswitchname BEFORE\nend\ncopy running-config startup-config\n' | telnet > "$work/t1"
grep -q "^Copy complete.$" "$work/t1" || fail "copy run start with room: $(cat "$work/t1")"
head -c 1000000 /dev/urandom > "$work/big.bin"
printf 'copy %s bootflash:big.bin\n' "$work/big.bin" | "$mdsim" --db "$db" > "$work/c1" 2>&1 ||
    fail "copy to bootflash: $(cat "$work/c1")"

# the host fills the disk
dd if=/dev/zero of="$disk/filler" bs=64k > /dev/null 2>&1
[ "$(df --output=avail "$disk" | tail -1)" -eq 0 ] || fail "the disk is not full: $(df "$disk")"

printf 'copy running-config startup-config\nconfigure terminal\nswitchname AFTER\nend\nshow switchname\n' | telnet > "$work/t2"
grep -q "^% Lab storage full, nothing changed: database or disk is full$" "$work/t2" ||
    fail "no storage-full error: $(cat "$work/t2")"
grep -q "Copy complete" "$work/t2" && fail "copy run start claimed success on a full disk: $(cat "$work/t2")"
[ "$(grep -c "^% Lab storage full" "$work/t2")" -eq 2 ] || fail "both writes should fail: $(cat "$work/t2")"
grep -qx BEFORE "$work/t2" || fail "a refused command changed the switch: $(cat "$work/t2")"
kill -0 "$SERVE_PID" 2> /dev/null || fail "serve died on a full disk: $(tail -5 "$SERVE_ERR")"
[ "$(grep -c "refuses writes" "$SERVE_ERR")" -eq 1 ] || fail "serve's operator is told once: $(cat "$SERVE_ERR")"

# a command that frees space works on the full disk
printf 'terminal dont-ask\ndelete bootflash:big.bin\ndir\n' | telnet > "$work/t3"
grep -q "% Lab storage" "$work/t3" && fail "delete on a full disk: $(cat "$work/t3")"
grep -q "  big.bin$" "$work/t3" && fail "big.bin still in bootflash: $(cat "$work/t3")"
grep -q "reserve is given back" "$SERVE_ERR" || fail "the reserve was not used: $(cat "$SERVE_ERR")"

# the host frees space: writes work again
rm -f "$disk/filler"
printf 'configure terminal\nswitchname AFTER\nend\ncopy running-config startup-config\n' | telnet > "$work/t4"
grep -q "^Copy complete.$" "$work/t4" || fail "copy run start once there is room: $(cat "$work/t4")"
grep -q "takes writes again" "$SERVE_ERR" || fail "the recovery is not told: $(cat "$SERVE_ERR")"
kill -0 "$SERVE_PID" 2> /dev/null || fail "serve is gone"
serve_stop || fail "serve did not stop cleanly"
printf 'show switchname\nshow startup-config | include switchname\n' | "$mdsim" --db "$db" > "$work/t5" 2>&1
grep -qx AFTER "$work/t5" && grep -q "^switchname AFTER" "$work/t5" || fail "after restart: $(cat "$work/t5")"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
