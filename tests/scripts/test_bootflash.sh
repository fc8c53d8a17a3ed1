#!/bin/bash
# bootflash: copy a host file in, dir, show file [md5sum], copy within bootflash:,
# delete; the refusals (missing file, directory, FIFO, too large, bad
# names, "..", another device, the 64-file limit), each leaving bootflash:
# as it was; the files survive reload and write erase; a telnet session
# of `mdsim serve` may not read host files.
# usage: test_bootflash.sh MDSIM
mdsim=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
db="$work/lab.db"
run() { printf '%s\n' "$@" | "$mdsim" --db "$db" 2>&1; }

printf 'first line\nsecond line\n' > "$work/notes.txt"
head -c 5000 /dev/urandom > "$work/blob.bin"
printf '\0binary' >> "$work/blob.bin"
head -c 1048576 /dev/zero > "$work/max.bin"
head -c 1048577 /dev/zero > "$work/big.bin"
mkfifo "$work/fifo"

out=$(run "copy $work/notes.txt bootflash:notes.txt" "copy $work/blob.bin bootflash:blob.bin" \
    "copy $work/max.bin bootflash:max.bin" "dir" "dir bootflash:notes.txt" "show file bootflash:notes.txt" \
    "show file bootflash:blob.bin")
echo "$out" | grep -q '^ *23    [A-Z][a-z][a-z] [0-9][0-9] [0-9:]* [0-9]*  notes.txt$' || fail "dir row of notes.txt: $out"
echo "$out" | grep -q '^ *1048576    .*  max.bin$' || fail "dir row of max.bin"
used=$((23 + 5007 + 1048576))
echo "$out" | grep -q "^ *$used bytes used$" || fail "bytes used ($used): $out"
echo "$out" | grep -q "^ *$((1024606208 - used)) bytes free$" || fail "bytes free"
echo "$out" | grep -q '^ *1024606208 bytes total$' || fail "bytes total"
echo "$out" | grep -q '^Usage for bootflash://sup-local$' || fail "usage line"
[ "$(echo "$out" | grep -A2 'show file bootflash:notes.txt' | tail -2)" = "$(cat "$work/notes.txt")" ] ||
    fail "show file of a text file: $out"
echo "$out" | grep -q 'bootflash:blob.bin is a binary file (5007 bytes): not shown' || fail "binary file message"

# the lab holds exactly the bytes copied
sqlite3 -version > /dev/null 2>&1 && {
    [ "$(sqlite3 "$db" "SELECT hex(bytes) FROM bootflash WHERE name = 'blob.bin'")" = \
      "$(od -An -v -tx1 "$work/blob.bin" | tr -d ' \n' | tr a-f A-F)" ] || fail "stored bytes differ"
}

# show file ... md5sum, as Ansible's nxos_file_copy and netmiko check a copy
if command -v md5sum > /dev/null; then
    for f in notes.txt blob.bin max.bin; do
        got=$(run "show file bootflash:$f md5sum" | tail -1)
        [ "$got" = "$(md5sum < "$work/$f" | cut -d' ' -f1)" ] || fail "md5sum of $f: $got"
    done
fi

before=$(run "dir" | grep -v '^MDS1#')
refuse() { # refuse WHAT LINE PATTERN: the line fails with PATTERN and changes nothing
    local o
    o=$(run "$2")
    echo "$o" | grep -q -- "$3" || fail "$1: expected '$3', got: $o"
    [ "$(run "dir" | grep -v '^MDS1#')" = "$before" ] || fail "$1 changed bootflash:"
}
refuse "missing file" "copy $work/nothing bootflash:x" "% Cannot open $work/nothing: No such file or directory"
refuse "directory" "copy $work bootflash:x" "% $work is not a regular file"
refuse "fifo" "copy $work/fifo bootflash:x" "% $work/fifo is not a regular file"
refuse "too large" "copy $work/big.bin bootflash:x" "% File too large: $work/big.bin (limit is 1048576 bytes)"
refuse "dot-dot" "copy $work/notes.txt bootflash:../x" "% Invalid file name: bootflash:../x"
refuse "dot-dot inside" "copy $work/notes.txt bootflash:a..b" "% Invalid file name"
refuse "slash" "copy $work/notes.txt bootflash:a/b" "% Invalid file name"
refuse "bad character" "copy $work/notes.txt bootflash:a*b" "% Invalid file name"
refuse "64 characters" "copy $work/notes.txt bootflash:$(printf 'a%.0s' $(seq 64))" "% Invalid file name"
refuse "empty name" "copy $work/notes.txt bootflash:" "% Invalid file name"
refuse "other device" "copy $work/notes.txt slot0:x" "% Invalid destination: slot0:x"
refuse "url source" "copy scp://host/x bootflash:x" "% Invalid source"
refuse "missing bootflash source" "copy bootflash:none bootflash:x" "No such file or directory"
refuse "delete missing" "delete bootflash:none" "No such file or directory"
refuse "show missing" "show file bootflash:none" "No such file or directory"
o=$(run "configure terminal" "copy $work/notes.txt bootflash:x")
echo "$o" | grep -q "% Invalid command at '^' marker." || fail "copy from config mode: $o"

# 63 characters is fine; a copy within bootflash:
name63=$(printf 'b%.0s' $(seq 63))
out=$(run "copy $work/notes.txt bootflash:$name63" "copy bootflash:notes.txt bootflash:copy.txt" \
    "show file bootflash:copy.txt")
echo "$out" | grep -q '^second line$' || fail "copy within bootflash: $out"
run "dir" | grep -q "  $name63\$" || fail "63-character name"

# the limit of 64 files: 5 so far, 59 more
for i in $(seq 59); do echo "copy $work/notes.txt bootflash:f$i"; done | "$mdsim" --db "$db" > /dev/null 2>&1
o=$(run "copy $work/notes.txt bootflash:f61")
echo "$o" | grep -q "% bootflash: is full (limit is 64 files)" || fail "65th file: $o"
o=$(run "copy $work/max.bin bootflash:f59")
echo "$o" | grep -q "Copy complete" || fail "replacing a file when full: $o"

# delete asks (terminal dont-ask answers for it); reload and write erase keep files
out=$(run "delete bootflash:copy.txt" "copy running-config startup-config" "reload" "write erase" "dir")
echo "$out" | grep -q 'Do you want to delete "/copy.txt" ?' || fail "delete confirmation: $out"
echo "$out" | grep -q '  copy.txt$' && fail "copy.txt still there"
echo "$out" | grep -q '  notes.txt$' || fail "reload/write erase lost notes.txt"

# served sessions may not read host files
client="$(dirname "$mdsim")/mdsim_client"
if [ -x "$client" ] && command -v timeout > /dev/null; then
    for try in 1 2 3 4 5; do
        tp=$((10000 + (RANDOM * 31 + $$) % 22000))
        "$mdsim" --db "$db" serve --telnet-port "$tp" --ssh-port $((tp + 16)) > "$work/serve.out" 2> "$work/serve.err" &
        pid=$!
        for _ in $(seq 100); do grep -q "serve: ready" "$work/serve.err" && break; kill -0 $pid 2> /dev/null || break; sleep 0.1; done
        grep -q "serve: ready" "$work/serve.err" && break
        kill $pid 2> /dev/null; wait $pid 2> /dev/null
    done
    o=$(printf 'copy %s bootflash:remote.txt\ndir\n' "$work/notes.txt" | timeout 30 "$client" 127.0.0.1 "$tp" 2>&1)
    echo "$o" | grep -q "% Permission denied: host files can be copied only from the local console" ||
        fail "telnet copy of a host file: $o"
    echo "$o" | grep -q '  remote.txt$' && fail "telnet copy wrote the file"
    o=$(printf 'copy bootflash:notes.txt bootflash:remote.txt\nshow file bootflash:remote.txt\n' |
        timeout 30 "$client" 127.0.0.1 "$tp" 2>&1)
    echo "$o" | grep -q '^first line' || fail "telnet copy within bootflash: $o"
    kill -TERM $pid; wait $pid
fi

[ "$fails" -eq 0 ] && echo "ok" && exit 0
echo "$fails check(s) failed"
exit 1
