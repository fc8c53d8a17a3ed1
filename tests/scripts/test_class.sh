#!/bin/bash
# A trainer's class end to end (docs/class.md): `class create` from the
# capture's lab file (the roster, each student's lab file and lab, the
# admin password), refusals that leave nothing behind; `class serve` with
# real clients: OpenSSH and Debian's telnet driven by expect log in as the
# students on their own switches (and not on another's, nor as
# admin/admin); `class reset` of one student's switch while served; `class
# stop`; and a reset while not served. Waits are on conditions, bounded.
# usage: test_class.sh MDSIM
mdsim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
for tool in ssh sshpass expect telnet timeout; do
    command -v $tool > /dev/null ||
        { echo "SKIP: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
work=$(mktemp -d)
cls="$work/class"
spid=
cleanup() {
    [ -n "$spid" ] && kill -TERM "$spid" 2> /dev/null && wait "$spid" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
lab="$root/examples/labs/seed-capture.lab"

# --- create, and what it refuses ---
"$mdsim" class create "$cls" --students 2 > /dev/null 2> "$work/err"
[ $? -eq 2 ] || fail "create without --lab: not a usage error"
"$mdsim" class create "$cls" --lab "$lab" --students 0 > /dev/null 2>&1
[ $? -eq 2 ] || fail "--students 0: not a usage error"
printf 'switch MDS1 chassis DS-C9509\n  module 99 X\n' > "$work/bad.lab"
"$mdsim" class create "$cls" --lab "$work/bad.lab" --students 2 > /dev/null 2> "$work/err" &&
    fail "a bad lab file made a class"
grep -q "^$work/bad.lab:2: " "$work/err" || fail "bad lab file: no file:line error: $(cat "$work/err")"
[ -e "$cls" ] && fail "a failed create left $cls"
ls "$work" | grep -q '\.new-' && fail "a failed create left its stage: $(ls "$work")"
"$mdsim" class create "$cls" --lab "$lab" --students 2 --telnet-port 3000 --ssh-port 3002 > /dev/null 2> "$work/err" &&
    fail "overlapping port ranges accepted"
grep -q "overlap" "$work/err" || fail "overlap: $(cat "$work/err")"

# Ports below the ephemeral range, from the PID; a taken one fails serve,
# and the class is made again elsewhere.
start_class() {
    local try
    for try in 1 2 3 4 5; do
        TP=$((10000 + (RANDOM * 31 + $$) % 20000))
        SP=$((TP + 100))
        rm -rf "$cls"
        "$mdsim" class create "$cls" --lab "$lab" --students 3 --telnet-port $TP --ssh-port $SP \
            > "$work/create.out" 2> "$work/create.err" || { fail "create: $(cat "$work/create.err")"; return 1; }
        : > "$work/serve.err"
        "$mdsim" class serve "$cls" 2> "$work/serve.err" &
        spid=$!
        for _ in $(seq 300); do
            grep -q "^mdsim class: ready: 3 labs" "$work/serve.err" && return 0
            kill -0 $spid 2> /dev/null || break
            sleep 0.1
        done
        wait $spid
        spid=
        grep -q "cannot listen" "$work/serve.err" || break
    done
    fail "class serve did not start: $(cat "$work/serve.err")"
    return 1
}
start_class || exit 1

[ "$(wc -l < "$cls/roster.csv")" -eq 7 ] || fail "roster: not 6 rows: $(cat "$cls/roster.csv")"
head -1 "$cls/roster.csv" | grep -qx "student,switch,telnet_port,ssh_port,user,password" || fail "roster header"
[ "$(stat -c %a "$cls/roster.csv")" = 600 ] || fail "roster readable by others"
for s in student01 student02 student03; do
    [ -f "$cls/$s.lab" ] && [ -f "$cls/$s.db" ] || fail "$s: no lab file or lab"
    grep -q "^username $s password 5 \\\$5\\\$" "$cls/$s.lab" || fail "$s.lab: no hashed user line"
done
grep -q "$(awk -F, 'NR == 2 { print $6 }' "$cls/roster.csv")" "$cls"/*.lab && fail "a password in clear in a lab file"
grep -q "student01 *MDS1 *$TP *$SP *student01" "$work/create.out" || fail "create did not print the roster"
"$mdsim" class create "$cls" --lab "$lab" --students 1 > /dev/null 2> "$work/err" && fail "create over a class"
grep -q "not an empty folder" "$work/err" || fail "create over a class: $(cat "$work/err")"
"$mdsim" class serve "$cls" 2> "$work/err" && fail "a second class serve ran"
grep -q "already served (process $spid)" "$work/err" || fail "second serve: $(cat "$work/err")"

# row STUDENT SWITCH FIELD: a field of the roster (3 telnet, 4 ssh, 6 password)
row() { awk -F, -v s="$1" -v w="$2" -v f="$3" '$1 == s && $2 == w { print $f }' "$cls/roster.csv"; }
SSHO="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=error -o ConnectTimeout=10
 -o NumberOfPasswordPrompts=1 -o PubkeyAuthentication=no"
ssh_as() { # USER PASS PORT COMMAND
    timeout 30 sshpass -p "$2" ssh $SSHO -p "$3" "$1@127.0.0.1" "$4"
}

# --- the students' logins, over SSH ---
out=$(ssh_as student02 "$(row student02 MDS2 6)" "$(row student02 MDS2 4)" "show switchname" 2>&1)
[ "$out" = MDS2 ] || fail "student02 on MDS2 over SSH: $out"
ssh_as student01 "$(row student01 MDS1 6)" "$(row student02 MDS1 4)" "show switchname" > /dev/null 2>&1 &&
    fail "student01 logged in on student02's switch"
ssh_as admin admin "$(row student01 MDS1 4)" "show switchname" > /dev/null 2>&1 && fail "admin/admin accepted"
out=$(ssh_as admin "$(cat "$cls/admin-password")" "$(row student01 MDS1 4)" "show switchname" 2>&1)
[ "$out" = MDS1 ] || fail "the trainer's admin password: $out"

# --- over telnet: student03 renames MDS1, as in an exercise ---
cat > "$work/t.exp" << EOF
set timeout 20
spawn telnet 127.0.0.1 [lindex \$argv 0]
expect "login: " { send "student03\r" } timeout { exit 2 }
expect "assword: " { send "[lindex \$argv 1]\r" } timeout { exit 3 }
expect "MDS1# " { send "configure terminal\r" } timeout { exit 4 }
expect "(config)# " { send "switchname CLASS3\r" } timeout { exit 5 }
expect "CLASS3(config)# " { send "end\r" } timeout { exit 6 }
expect "CLASS3# " { send "exit\r" } timeout { exit 7 }
expect eof
EOF
expect "$work/t.exp" "$(row student03 MDS1 3)" "$(row student03 MDS1 6)" > "$work/t.out" 2>&1 ||
    fail "telnet as student03 (expect exit $?): $(tail -5 "$work/t.out")"
pw3=$(row student03 MDS1 6)
out=$(ssh_as student03 "$pw3" "$(row student03 MDS1 4)" "show switchname" 2>&1)
[ "$out" = CLASS3 ] || fail "student03's rename: $out"

# --- the reference lab's check over the served class: nobody did it yet ---
"$mdsim" check "$root/examples/checks/seed-lab.check" --class "$cls" > "$work/check.out" 2>&1
[ $? -eq 1 ] || fail "check of an untouched class did not fail: $(tail -3 "$work/check.out")"
[ "$(awk '{ print $1 }' "$work/check.out" | sort -u | paste -sd,)" = student01,student02,student03 ] ||
    fail "check --class: not one report per student: $(head -3 "$work/check.out")"

# --- reset of one student's switch while served ---
"$mdsim" class reset "$cls" student03 --switch MDS1 > "$work/reset.out" 2>&1 || fail "class reset: $(cat "$work/reset.out")"
grep -q "MDS1 reset to its starting configuration" "$work/reset.out" || fail "reset said: $(cat "$work/reset.out")"
out=$(ssh_as student03 "$pw3" "$(row student03 MDS1 4)" "show switchname" 2>&1)
[ "$out" = MDS1 ] || fail "after the reset, student03's MDS1: $out"
out=$(ssh_as student03 "$pw3" "$(row student03 MDS1 4)" "show running-config interface fcip1" 2>&1)
echo "$out" | grep -q "no shutdown" || fail "the starting configuration (fcip1 no shutdown) after reset: $out"
"$mdsim" class reset "$cls" ../class/student01 > /dev/null 2> "$work/err" && fail "reset of a path"
grep -q "no student" "$work/err" || fail "reset of a path: $(cat "$work/err")"

# --- stop ---
"$mdsim" class stop "$cls" > "$work/stop.out" 2>&1 || fail "class stop: $(cat "$work/stop.out")"
wait $spid
rc=$?
spid=
[ $rc -eq 0 ] || fail "class serve exited $rc: $(tail -5 "$work/serve.err")"
grep -q "^mdsim class: stopped" "$work/serve.err" || fail "serve did not say stopped"
"$mdsim" class stop "$cls" > /dev/null 2> "$work/err" && fail "stop of a stopped class"
grep -q "not served" "$work/err" || fail "stop of a stopped class: $(cat "$work/err")"
"$mdsim" class reset "$cls" student01 > "$work/reset.out" 2>&1 || fail "reset not served: $(cat "$work/reset.out")"
grep -q "MDS2 reset" "$work/reset.out" || fail "reset of every switch: $(cat "$work/reset.out")"

# --- a supervisor killed outright takes its labs along ---
"$mdsim" class serve "$cls" 2> "$work/serve.err" &
spid=$!
for _ in $(seq 300); do
    grep -q "^mdsim class: ready" "$work/serve.err" && break
    sleep 0.1
done
kids=$(pgrep -P $spid)
[ "$(echo $kids | wc -w)" -eq 3 ] || fail "not one serve per student: $kids"
kill -KILL $spid
wait $spid 2> /dev/null
spid=
for _ in $(seq 300); do
    left=
    for k in $kids; do kill -0 $k 2> /dev/null && left="$left $k"; done
    [ -z "$left" ] && break
    sleep 0.1
done
[ -z "$left" ] || { fail "labs outlived their supervisor:$left"; kill -KILL $left; }

[ $fails -eq 0 ] && echo "ok: class create, serve (OpenSSH, telnet), reset, stop"
[ $fails -eq 0 ]
