#!/bin/sh
# Lab topology files: `mdsim lab create/show/list/reset`, the example lab,
# bad files refused with file:line and no lab left behind, a three-switch lab.
# usage: test_lab_files.sh MDSIM
mdsim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
example=$root/examples/labs/san-extension.lab
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1. The example creates the lab; show prints it back as a lab file.
"$mdsim" --db "$dir/ex.db" lab create "$example" > "$dir/out" 2> "$dir/err" ||
    fail "lab create of the example failed: $(cat "$dir/err")"
[ -s "$dir/err" ] && fail "lab create printed on stderr: $(cat "$dir/err")"
"$mdsim" --db "$dir/ex.db" lab show > "$dir/show" 2> "$dir/err" || fail "lab show failed: $(cat "$dir/err")"
cat > "$dir/want" <<'LAB'
! mdsim lab: 2 switches
seed 1

! MDS 9509, 9 slots; host name now MDS1
switch MDS1 chassis DS-C9509
  module 2 DS-X9308-SMIP      ! IP Storage Services Module
  module 5 DS-X9530-SF2-K9    ! Supervisor/Fabric-2
  module 6 DS-X9530-SF2-K9    ! Supervisor/Fabric-2

! MDS 9509, 9 slots; host name now MDS2
switch MDS2 chassis DS-C9509
  module 2 DS-X9308-SMIP      ! IP Storage Services Module
  module 5 DS-X9530-SF2-K9    ! Supervisor/Fabric-2
  module 6 DS-X9530-SF2-K9    ! Supervisor/Fabric-2

! cables
link MDS1 GigabitEthernet2/2 MDS1 GigabitEthernet2/3
link MDS1 GigabitEthernet2/4 MDS2 GigabitEthernet2/2
LAB
diff "$dir/want" "$dir/show" > "$dir/diff" || fail "lab show of the example differs: $(cat "$dir/diff")"
"$mdsim" --db "$dir/ex.db" lab list > "$dir/list" 2>&1
cat > "$dir/want" <<'LAB'
Switch     Hostname   Chassis
MDS1       MDS1       DS-C9509
MDS2       MDS2       DS-C9509
LAB
diff "$dir/want" "$dir/list" > "$dir/diff" || fail "lab list differs: $(cat "$dir/diff")"

# 2. The default lab (a new file opened without `lab create`) is the example.
printf 'show switchname\n' | "$mdsim" --db "$dir/default.db" > /dev/null 2>&1 || fail "default lab"
"$mdsim" --db "$dir/default.db" lab show > "$dir/show-default" 2>&1
diff "$dir/show" "$dir/show-default" > "$dir/diff" || fail "default lab is not the example: $(cat "$dir/diff")"

# 3. What lab show prints is a lab file that gives the same lab.
"$mdsim" --db "$dir/again.db" lab create "$dir/show" > /dev/null 2> "$dir/err" ||
    fail "lab show output is not a valid lab file: $(cat "$dir/err")"
"$mdsim" --db "$dir/again.db" lab show > "$dir/show-again" 2>&1
diff "$dir/show" "$dir/show-again" > "$dir/diff" || fail "show -> create -> show differs: $(cat "$dir/diff")"

# 4. An existing file is not replaced.
cp "$dir/ex.db" "$dir/ex.orig"
"$mdsim" --db "$dir/ex.db" lab create "$example" > /dev/null 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || fail "lab create over an existing lab: exit $rc, want 1"
grep -q "already exists" "$dir/err" || fail "lab create over an existing lab: message: $(cat "$dir/err")"
cmp -s "$dir/ex.db" "$dir/ex.orig" || fail "lab create modified an existing lab"
"$mdsim" --db "$dir/x.db" lab create "$dir/no-such.lab" > /dev/null 2> "$dir/err"
[ $? -eq 1 ] || fail "lab create of a missing file: want exit 1"
grep -q "no-such.lab" "$dir/err" || fail "lab create of a missing file: stderr does not name it"
[ -e "$dir/x.db" ] && fail "lab create of a missing file left a lab"

# 5. Bad files: file:line: message on stderr, exit 1, no lab file left.
head='switch MDS1 chassis DS-C9506
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
switch MDS2 chassis DS-C9506
  module 2 DS-X9304-SMIP
  module 5 DS-X9530-SF2-K9'
bad() { # NAME LINE PATTERN BODY
    printf '%s\n' "$4" > "$dir/$1.lab"
    "$mdsim" --db "$dir/$1.db" lab create "$dir/$1.lab" > "$dir/out" 2> "$dir/err"
    rc=$?
    [ $rc -eq 1 ] || fail "$1: exit $rc, want 1"
    grep -q "^$dir/$1.lab:$2: " "$dir/err" || fail "$1: stderr lacks '$1.lab:$2:': $(cat "$dir/err")"
    grep -q "$3" "$dir/err" || fail "$1: stderr lacks '$3': $(cat "$dir/err")"
    for f in "$dir/$1.db"*; do
        [ -e "$f" ] && fail "$1: left $f behind"
    done
    [ ! -s "$dir/out" ] || fail "$1: printed on stdout: $(cat "$dir/out")"
}
bad unknown_module 7 "unknown module 'DS-X9999-XX'" "$head
  module 3 DS-X9999-XX"
bad slot_beyond_chassis 7 "slot 8 is beyond the 6 slots" "$head
  module 8 DS-X9308-SMIP"
bad slot_out_of_range 7 "14 is out of range (1-13)" "$head
  module 14 DS-X9308-SMIP"
bad unknown_switch 8 "unknown switch 'MDS3'" "$head
link MDS1 g2/1 MDS2 g2/1
link MDS1 g2/2 MDS3 g2/1"
bad cabled_twice 8 "MDS2 GigabitEthernet2/1 is already cabled (line 7)" "$head
link MDS1 g2/1 MDS2 g2/1
link MDS1 GigabitEthernet2/2 MDS2 gig2/1"
bad port_not_on_module 7 "the DS-X9304-SMIP in slot 2 has ports 1-4" "$head
link MDS1 g2/8 MDS2 g2/5"
bad no_ips_module 7 "MDS1 has no IPS module in slot 5" "$head
link MDS1 g5/1 MDS2 g2/1"
bad syntax_error 3 "unexpected 'modle'" "switch MDS1 chassis DS-C9506
  module 5 DS-X9530-SF2-K9
  modle 2 DS-X9308-SMIP"
bad incomplete 1 "incomplete line; expected chassis" "switch MDS1"
bad duplicate_switch 7 "switch MDS2 already declared at line 4" "$head
switch MDS2 chassis DS-C9509"
bad no_supervisor 4 "switch MDS2 has no supervisor module" "switch MDS1 chassis DS-C9506
  module 5 DS-X9530-SF2-K9
! MDS2 has only a line card
switch MDS2 chassis DS-C9506
  module 2 DS-X9308-SMIP"
bad empty 1 "no switch declared" "! nothing here"

# 5b. Numbers are bounded as the CLI bounds them: one that overflows an int
# is out of range, never wrapped (g2/4294967297 was taken for g2/1).
bad port_wraps 7 "g2/4294967297: the DS-X9308-SMIP in slot 2 has ports 1-8" "$head
link MDS1 g2/4294967297 MDS2 g2/1"
bad port_huge 7 "g2/99999999999999999999: the DS-X9304-SMIP in slot 2 has ports 1-4" "$head
link MDS1 g2/1 MDS2 g2/99999999999999999999"
bad slot_wraps 7 "slot 4294967298 is out of range (1-13)" "$head
link MDS1 g4294967298/1 MDS2 g2/1"
bad slot_negative_wrap 7 "slot 4294967294 is out of range (1-13)" "$head
link MDS1 g4294967294/1 MDS2 g2/1"
bad slot_zero 7 "slot 0 is out of range (1-13)" "$head
link MDS1 g0/1 MDS2 g2/1"
bad port_zero 7 "g2/0: the DS-X9308-SMIP in slot 2 has ports 1-8" "$head
link MDS1 g2/0 MDS2 g2/1"
bad port_signed 7 "'g2/+3' is not a Gigabit Ethernet port" "$head
link MDS1 g2/+3 MDS2 g2/1"
bad port_negative 7 "'g2/-1' is not a Gigabit Ethernet port" "$head
link MDS1 g2/-1 MDS2 g2/1"
bad module_slot_wraps 7 "4294967298 is out of range (1-13)" "$head
  module 4294967298 DS-X9308-SMIP"
bad seed_too_big 1 "4294967296 is out of range (0-4294967295)" "seed 4294967296
$head"
bad seed_huge 1 "18446744073709551617 is out of range (0-4294967295)" "seed 18446744073709551617
$head"
# At most 64 switches (what `mdsim serve` can serve), 1 MiB of file.
i=1
while [ $i -le 65 ]; do
    printf 'switch S%d chassis DS-C9506\n  module 5 DS-X9530-SF2-K9\n' $i
    i=$((i + 1))
done > "$dir/many.txt"
bad too_many_switches 129 "more than 64 switches in one lab" "$(cat "$dir/many.txt")"
head -n 128 "$dir/many.txt" > "$dir/sixty-four.lab"
"$mdsim" --db "$dir/sixty-four.db" lab create "$dir/sixty-four.lab" > /dev/null 2> "$dir/err" ||
    fail "a lab of 64 switches: $(cat "$dir/err")"
awk 'BEGIN { for (i = 0; i < 17000; i++) printf "! %060d\n", i; print "switch MDS1 chassis DS-C9506" }' \
    > "$dir/big.lab"
"$mdsim" --db "$dir/big.db" lab create "$dir/big.lab" > /dev/null 2> "$dir/err"
[ $? -eq 1 ] || fail "a lab file over 1 MiB: want exit 1"
grep -q "^$dir/big.lab: over 1 MiB" "$dir/err" || fail "a lab file over 1 MiB: $(cat "$dir/err")"
[ -e "$dir/big.db" ] && fail "a lab file over 1 MiB left a lab"

# 6. lab reset: a configured lab back to factory, topology kept.
"$mdsim" --db "$dir/fresh.db" lab create "$example" > /dev/null 2>&1
show_all() { # DB OUT: running and startup config of both switches
    cat > "$dir/show.txt" <<'CMD'
MDS1# show running-config
MDS1# show startup-config
MDS2# show running-config
MDS2# show startup-config
CMD
    "$mdsim" --db "$1" replay "$dir/show.txt" 2>&1 | grep -v 'Time:' > "$2"
}
show_all "$dir/fresh.db" "$dir/factory"
cat > "$dir/config.txt" <<'CMD'
MDS1# configure terminal
MDS1(config)# switchname edge1
edge1(config)# interface gigabitethernet 2/2
edge1(config-if)# ip address 192.168.10.1 255.255.255.0
edge1(config-if)# no shutdown
edge1(config-if)# end
edge1# copy running-config startup-config
MDS2# configure terminal
MDS2(config)# interface gigabitethernet 2/2
MDS2(config-if)# ip address 192.168.10.2 255.255.255.0
MDS2(config-if)# end
CMD
"$mdsim" --db "$dir/ex.db" replay "$dir/config.txt" > "$dir/out" 2> "$dir/err" ||
    fail "configuring the lab failed: $(cat "$dir/err")"
cat > "$dir/run.txt" <<'CMD'
edge1# show running-config
CMD
"$mdsim" --db "$dir/ex.db" replay "$dir/run.txt" > "$dir/out" 2>&1
grep -q "ip address 192.168.10.1 255.255.255.0" "$dir/out" || fail "configuration not applied: $(cat "$dir/out")"
"$mdsim" --db "$dir/ex.db" lab reset > "$dir/out" 2> "$dir/err" || fail "lab reset failed: $(cat "$dir/err")"
printf 'lab reset: MDS1 reset to factory configuration\nlab reset: MDS2 reset to factory configuration\n' |
    cmp -s - "$dir/out" || fail "lab reset said: $(cat "$dir/out")"
show_all "$dir/ex.db" "$dir/reset"
diff "$dir/factory" "$dir/reset" > "$dir/diff" || fail "lab reset is not factory: $(cat "$dir/diff")"
"$mdsim" --db "$dir/ex.db" lab show > "$dir/show-reset" 2>&1
diff "$dir/show" "$dir/show-reset" > "$dir/diff" || fail "lab reset changed the topology: $(cat "$dir/diff")"

# 7. Three switches, names and ports in every accepted spelling, a seed.
cat > "$dir/three.lab" <<'LAB'
! three sites
seed 4242
switch MDS1 chassis DS-C9509
  module 2 DS-X9308-SMIP
  module 5 DS-X9530-SF2-K9
switch MDS2 chassis DS-C9506
  module 3 DS-X9304-SMIP
  module 5 DS-X9530-SF2-K9
  module 6 DS-X9530-SF2-K9
sw MDS3 ch DS-C9509   ! keywords abbreviate as on the switch
  mod 4 DS-X9308-SMIP
  mod 6 DS-X9530-SF2-K9
link MDS1 g2/1 MDS2 gig3/4
link MDS2 GigabitEthernet3/1 MDS3 GIGABITETHERNET4/8
link MDS3 g4/1 MDS1 g2/2
LAB
"$mdsim" --db "$dir/three.db" lab create "$dir/three.lab" > /dev/null 2> "$dir/err" ||
    fail "three-switch lab: $(cat "$dir/err")"
"$mdsim" --db "$dir/three.db" lab show > "$dir/show3" 2>&1
grep -qx "seed 4242" "$dir/show3" || fail "three-switch lab: seed not shown"
grep -qx "switch MDS3 chassis DS-C9509" "$dir/show3" || fail "three-switch lab: MDS3 not shown"
grep -qx "link MDS2 GigabitEthernet3/1 MDS3 GigabitEthernet4/8" "$dir/show3" ||
    fail "three-switch lab: ports not canonical: $(cat "$dir/show3")"
grep -qx "link MDS1 GigabitEthernet2/1 MDS2 GigabitEthernet3/4" "$dir/show3" || fail "three-switch lab: first cable"
[ "$("$mdsim" --db "$dir/three.db" lab list | grep -c '^MDS')" -eq 3 ] || fail "three-switch lab: lab list"
printf 'show switchname\nshow module\n' | "$mdsim" --db "$dir/three.db" --switch MDS3 > "$dir/out" 2>&1 ||
    fail "--switch MDS3 failed: $(cat "$dir/out")"
grep -q "^MDS3# show switchname" "$dir/out" || fail "--switch MDS3: not on MDS3: $(cat "$dir/out")"
grep -q "^4 .*DS-X9308-SMIP" "$dir/out" || fail "MDS3 show module lacks slot 4: $(cat "$dir/out")"
printf 'MDS3# configure terminal\nMDS3(config)# interface gigabitethernet 4/8\nMDS3(config-if)# no shutdown\n' \
    > "$dir/mds3.txt"
"$mdsim" --db "$dir/three.db" replay "$dir/mds3.txt" > /dev/null 2> "$dir/err" ||
    fail "configuring MDS3 g4/8: $(cat "$dir/err")"

# an endless file is read no further than its bound (before: to the end of memory)
endless_db=$(mktemp -u)
timeout 60 "$mdsim" --db "$endless_db" lab create /dev/zero > /dev/null 2>&1
rc=$?
[ $rc -eq 1 ] || fail "lab create /dev/zero: exit $rc, want 1 (124: it read on)"
rm -f "$endless_db"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all lab topology file checks passed"
