#!/bin/bash
# Numbers read off the wire are bounded: escape-sequence parameters (at
# the login prompt too, before any authentication) and NAWS window sizes. A parameter of 11 digits once overflowed an int (UB: the
# sanitizer build died; the plain build wrapped 4294967299 to 3 = Delete).
# usage: test_serve_wire_numbers.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
serve_start "$work/lab.db" || { fail "serve"; finish; }

# raw PORT FILE: the bytes of FILE to the port, what comes back (5 s at most).
raw() {
    timeout 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1; cat '$2' >&3; timeout 5 cat <&3" 2> /dev/null
}

# Before login: huge parameters at the login prompt, then a normal login.
{
    printf '\033[99999999999A\033[99999999999999999999;99999999999999999999~'
    printf '\033[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30~'
    printf '\033O99999999999999B'
    printf 'admin\r\nadmin\r\nshow switchname\r\nexit\r\n'
} > "$work/esc"
raw "$TP" "$work/esc" > "$work/out"
grep -a -q "^MDS1" "$work/out" || fail "login after huge escape parameters: $(tr -d '\377' < "$work/out" | tail -c 300)"
kill -0 "$SERVE_PID" 2> /dev/null || fail "serve died on an escape sequence at the login prompt"

# After login: a parameter that wraps to 3 must not be the Delete key
# (ESC [ 3 ~): `show switchnamex`, Left, that sequence, Enter stays invalid.
printf '@send show switchnamex\\x1b[D\\x1b[4294967299~\\r\n@expect Invalid command\n@sync\nshow switchname\n' |
    timeout 30 "$client" 127.0.0.1 "$TP" > "$work/out" 2>&1 ||
    fail "ESC [ 4294967299 ~ acted as a key: $(tail -c 300 "$work/out")"
# and the real Delete still works (so the check above can fail)
printf '@send show switchnamex\\x1b[D\\x1b[3~\\r\n@expect MDS1\n@sync\n' |
    timeout 30 "$client" 127.0.0.1 "$TP" > "$work/out" 2>&1 || fail "ESC [ 3 ~ is not Delete: $(tail -c 300 "$work/out")"
# modifiers: ESC [ 1 ; 5 D (Ctrl-Left) is Left, not "5D" typed in
printf '@send show switchnamex\\x1b[1;5D\\x1b[3~\\r\n@expect MDS1\n@sync\n' |
    timeout 30 "$client" 127.0.0.1 "$TP" > "$work/out" 2>&1 || fail "ESC [ 1 ; 5 D: $(tail -c 300 "$work/out")"

# NAWS: 65535 x 65535 and 0 x 0 are ignored, the session keeps its size.
{
    printf '\377\372\037\377\377\377\377\377\377\377\377\377\360'
    printf '\377\372\037\000\000\000\000\377\360'
    printf 'admin\r\nadmin\r\nshow terminal\r\nexit\r\n'
} > "$work/naws"
raw "$TP" "$work/naws" > "$work/out"
grep -a -q "Length: 24 lines, Width: 80 columns" "$work/out" ||
    fail "NAWS out of range: $(tr -d '\377' < "$work/out" | grep -a Length)"

kill -0 "$SERVE_PID" 2> /dev/null || fail "serve died"
serve_stop || fail "serve did not stop cleanly"
grep -E "AddressSanitizer|runtime error|LeakSanitizer" "$SERVE_ERR" && fail "sanitizer report"
finish
