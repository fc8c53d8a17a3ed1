#!/bin/sh
# Storage arrays in lab files (docs/array.md): examples/labs/array.lab
# round-trips through lab show; bad array lines are refused with their
# line and reason, leaving no lab file; `mdsim --switch DS1` opens the
# array's SMcli shell on stdin, its settings persist in the lab and a
# `lab reset` keeps the array; a switch's prompt on the array is refused.
# usage: test_array_lab.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/tools/labfile_lib.sh"

roundtrip "$root/examples/labs/array.lab" "$dir/a.db"
for l in 'array DS1 controllers 2 disks 15' '  interface eth0 10.10.10.20 255.255.255.0' \
    '  logical-drive Data raid 5 disks 5 capacity-gb 1000' '  logical-drive Logs raid 10 disks 4 capacity-gb 500 owner b' \
    '  fc-port 20:14:00:a0:b8:11:22:33 switch MDS2 vsan 100' 'link DS1 eth0 MDS1 GigabitEthernet2/5'; do
    grep -qxF "$l" "$dir/shown.lab" || fail "lab show lost '$l': $(cat "$dir/shown.lab")"
done

"$mdsim" --db "$dir/a.db" lab list | grep -qE '^DS1 +DS1 +\(array\)$' || fail "lab list: $("$mdsim" --db "$dir/a.db" lab list)"

# The shell on stdin; a setting stays in the lab for the next process.
printf 'set logicalDrive [Data] writeCacheEnabled=FALSE;\n' | "$mdsim" --db "$dir/a.db" --switch DS1 > "$dir/out" 2>&1 ||
    fail "set logicalDrive on stdin: $(cat "$dir/out")"
printf 'show storageSubsystem profile\n' | "$mdsim" --db "$dir/a.db" --switch DS1 > "$dir/out" 2>&1
grep -q '^DS1(smcli)# show storageSubsystem profile$' "$dir/out" || fail "no SMcli prompt: $(head -3 "$dir/out")"
[ "$(grep -c 'Write cache in force: *write-through' "$dir/out")" -eq 1 ] ||
    fail "Data's write cache setting did not persist: $(grep 'in force' "$dir/out")"
"$mdsim" --db "$dir/a.db" lab reset > /dev/null 2>&1 || fail "lab reset"
"$mdsim" --db "$dir/a.db" lab list | grep -q '^DS1 ' || fail "lab reset lost the array"
printf 'MDS1# show switchname\nDS1(smcli)# show storageSubsystem profile\nDS1# show switchname\n' > "$dir/t.txt"
"$mdsim" --db "$dir/a.db" replay "$dir/t.txt" > /dev/null 2> "$dir/err" && fail "a switch's prompt on DS1 was taken"
grep -q "the prompt is a switch's, but DS1 is a storage array" "$dir/err" || fail "wrong refusal: $(cat "$dir/err")"

# bad FILE-TEXT EXPECTED (labfile_lib.sh)
bad "$sw
array A
  logical-drive D raid 6 disks 4 capacity-gb 10" "bad1.lab:5: RAID 6: an array's drives are RAID 5 or RAID 10"
bad "$sw
array A
  logical-drive D raid 5 disks 2 capacity-gb 10" "RAID 5 on 2 disks: RAID 5 takes 3 or more, RAID 10 an even number"
bad "$sw
array A
  logical-drive D raid 10 disks 3 capacity-gb 10" "RAID 10 on 3 disks"
bad "$sw
array A disks 6
  logical-drive D raid 5 disks 4 capacity-gb 10
  logical-drive E raid 10 disks 4 capacity-gb 10" "bad4.lab:6: the array has 6 disks; its logical drives would take 8"
bad "$sw
array A
  logical-drive D raid 10 disks 4 capacity-gb 2001" "2001 GB on RAID 10 of 4 disks: at most 2000 GB (1 TB disks)"
bad "$sw
array A
  logical-drive D raid 5 disks 3 capacity-gb 10
  logical-drive D raid 5 disks 3 capacity-gb 10" "logical drive D is declared twice"
bad "$sw
host H
  logical-drive D raid 5 disks 3 capacity-gb 10" "bad7.lab:5: logical-drive outside an array"
bad "$sw
array A
  fc-port 20:14:00:a0:b8:00:00:01 switch MDS9 vsan 1" "unknown switch 'MDS9'"
bad "$sw
array A
  fc-port 20:14:00:a0:b8:00:00:01 switch MDS1 vsan 1
  fc-port 20:14:00:a0:b8:00:00:02 switch MDS1 vsan 1" "the array has its FC port already (line 5)"
bad "$sw
array A controllers 3" "bad10.lab:4:"
bad "$sw
array MDS1" "switch MDS1 already declared at line 1"
bad "$sw
array A
  logical-drive ThisNameIsMuchLongerThanThirtyChars raid 5 disks 3 capacity-gb 1" "longer than 30 characters"
bad "$sw
fc-port 20:14:00:a0:b8:00:00:01 switch MDS1 vsan 1" "fc-port outside an array"

[ "$fails" -eq 0 ] || exit 1
echo "test_array_lab: ok"
