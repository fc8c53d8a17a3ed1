# Shared by the lab-file tests (sourced by test_routing_lab.sh,
# test_hosts_lab.sh, test_array_lab.sh; POSIX sh, with $mdsim set): a
# temporary directory, fail, the `lab show` round trip and the refusal of a
# bad lab file.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# roundtrip_db DB: lab show > x.lab gives the same lab back ($dir/shown.lab)
roundtrip_db() {
    "$mdsim" --db "$1" lab show > "$dir/shown.lab" || fail "lab show"
    rm -f "$dir"/again.db*
    "$mdsim" --db "$dir/again.db" lab create "$dir/shown.lab" > /dev/null || fail "lab create of lab show's output"
    "$mdsim" --db "$dir/again.db" lab show > "$dir/shown2.lab"
    cmp -s "$dir/shown.lab" "$dir/shown2.lab" || fail "lab show does not round-trip: $(diff "$dir/shown.lab" "$dir/shown2.lab")"
}

# roundtrip FILE DB: a new lab DB made from FILE, then roundtrip_db DB
roundtrip() {
    rm -f "$2"*
    "$mdsim" --db "$2" lab create "$1" > /dev/null || { fail "lab create $1"; return; }
    roundtrip_db "$2"
}

# bad FILE-TEXT EXPECTED: lab create refuses it with that message and
# leaves no lab file (the files are bad1.lab, bad2.lab... in order)
n=0
bad() {
    n=$((n + 1))
    printf '%s\n' "$1" > "$dir/bad$n.lab"
    if "$mdsim" --db "$dir/bad$n.db" lab create "$dir/bad$n.lab" > /dev/null 2> "$dir/bad.err"; then
        fail "bad lab $n accepted (expected: $2)"
    elif ! grep -qF "$2" "$dir/bad.err"; then
        fail "bad lab $n: expected '$2', got '$(cat "$dir/bad.err")'"
    fi
    [ ! -e "$dir/bad$n.db" ] || fail "bad lab $n left a lab file"
}

# The lines bad's texts start with: one switch.
sw='switch MDS1 chassis DS-C9509
module 2 DS-X9308-SMIP
module 5 DS-X9530-SF2-K9'
