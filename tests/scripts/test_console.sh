#!/bin/sh
# The interactive console, driven through a real terminal in tmux: prompts,
# `?` answered at once (no Enter), Tab completion, Ctrl-Z, Ctrl-C, exit,
# and the command history kept in the lab for the next console.
# usage: test_console.sh MDSIM
mdsim=$(realpath "$1")
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi
dir=$(mktemp -d)
# A private socket directory, and a new server (socket) for each start:
# a server whose last session was just killed is still exiting for a
# moment, and a client that reaches it then gets "server exited
# unexpectedly" (seen on CI).
export TMUX_TMPDIR="$dir"
starts=0
sock() { echo "mdsim-test-$starts"; }
tm() { tmux -L "$(sock)" -f /dev/null "$@"; }
stop_all() { for n in $(seq 0 $starts); do tmux -L "mdsim-test-$n" kill-server 2>/dev/null; done; }
trap 'stop_all; rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

screen() { tm capture-pane -p -t t 2>/dev/null; }

# wait_for PATTERN [TENTHS]: polls the screen (grep -E) for up to ~3 s
# (or TENTHS tenths of a second).
wait_for() {
    i=0
    while [ $i -lt "${2:-30}" ]; do
        screen | grep -Eq -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# last_line: the line the cursor is on (the prompt being edited).
last_line() {
    y=$(tm display -p -t t '#{cursor_y}')
    screen | sed -n "$((y + 1))p"
}

# expect_last PATTERN WHAT: polls until the cursor line matches.
expect_last() {
    i=0
    while [ $i -lt 30 ]; do
        last_line | grep -Eq -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "$2: cursor line is '$(last_line)', want /$1/
--- screen ---
$(screen)
--------------"
    return 1
}

# start: mdsim in a new tmux session, on a new server; tried three times,
# with tmux's own log kept for the report.
start() {
    for try in 1 2 3; do
        starts=$((starts + 1))
        (cd "$dir" && tm -v new-session -d -s t -x 120 -y 40 \
            "$mdsim --db $dir/lab.db; echo \"[exit \$?]\"; sleep 30") 2>"$dir/tmux.err" &&
            tm has-session -t t 2>/dev/null && break
        echo "tmux start $try failed: $(cat "$dir/tmux.err")"
        tail -5 "$dir"/tmux-server-*.log 2>/dev/null
        sleep 1
    done
    # start-up may be slow under sanitizers on a loaded machine (the serve
    # load test runs beside it under ctest -j): up to 60 s, seen over 15 s
    wait_for '^MDS1#' 600 || { fail "no MDS1# prompt at start: $(screen)"; exit 1; }
}

start
expect_last '^MDS1# ?$' "first prompt"

# configure terminal, abbreviated
tm send-keys -t t 'conf t' Enter
wait_for 'Enter configuration commands, one per line' || fail "no configure banner"
expect_last '^MDS1\(config\)# ?$' "conf t"

tm send-keys -t t 'int g2/2' Enter
expect_last '^MDS1\(config-if\)# ?$' "int g2/2"

# `?` without Enter: the help list at once, then the prompt again
tm send-keys -t t -l '?'
wait_for '^  shutdown +' || fail "? did not list shutdown"
screen | grep -Eq '^  ip +Configure IP' || fail "? did not list ip: $(screen)"
screen | grep -Eq '^  switchport +' || fail "? did not list switchport"
expect_last '^MDS1\(config-if\)# ?$' "prompt after ?"

# `?` after a partial line keeps the typed text
tm send-keys -t t -l 'switchport mtu ?'
wait_for '<576-9000>' || fail "switchport mtu ? did not show the range"
expect_last '^MDS1\(config-if\)# switchport mtu ?$' "line kept after ?"
tm send-keys -t t -l '2000'
tm send-keys -t t Enter
expect_last '^MDS1\(config-if\)# ?$' "switchport mtu 2000"

# Ctrl-Z: straight back to exec
tm send-keys -t t C-z
expect_last '^MDS1# ?$' "Ctrl-Z"

# Tab completes a unique prefix
tm send-keys -t t -l 'sh'
tm send-keys -t t Tab
expect_last '^MDS1# show ?$' "sh + Tab"
tm send-keys -t t -l 'run'
tm send-keys -t t Tab
expect_last '^MDS1# show running-config ?$' "show run + Tab"
tm send-keys -t t -l '| include mtu'
tm send-keys -t t Enter
wait_for '^  switchport mtu 2000$' || fail "the mtu set in the console is not in the running-config: $(screen)"
expect_last '^MDS1# ?$' "after show running-config"

# Ctrl-C drops a half-typed line: nothing runs, same mode
tm send-keys -t t -l 'configure termin'
expect_last '^MDS1# configure termin$' "typing"
tm send-keys -t t C-c
expect_last '^MDS1# ?$' "Ctrl-C"
tm send-keys -t t -l 'show switchname'
tm send-keys -t t Enter
wait_for '^MDS1$' || fail "show switchname after Ctrl-C printed nothing: $(screen)"
expect_last '^MDS1# ?$' "after Ctrl-C the session stays at exec"
[ "$(screen | grep -c 'Enter configuration commands')" -eq 1 ] || fail "Ctrl-C ran the half-typed configure"
screen | grep -q 'configure terminshow' && fail "Ctrl-C did not clear the line"

# Tab completes a value the lab has, typed glued to its interface type
for line in 'configure terminal' 'feature fcip' 'interface fcip 12' 'end'; do
    tm send-keys -t t -l "$line"
    tm send-keys -t t Enter
done
expect_last '^MDS1# ?$' "back at exec after creating fcip12"
tm send-keys -t t -l 'show interface fcip1'
tm send-keys -t t Tab
expect_last '^MDS1# show interface fcip12 ?$' "show interface fcip1 + Tab"
tm send-keys -t t C-c
expect_last '^MDS1# ?$' "Ctrl-C after the completed interface"

# an error shows the caret under the word
tm send-keys -t t -l 'show bogus'
tm send-keys -t t Enter
wait_for "^% Invalid command at '\\^' marker\\.$" || fail "no invalid-command error"
screen | grep -qx '            ^' || fail "caret not under 'bogus': $(screen | grep -B2 -A1 Invalid)"

# the console is a session of its own in `show users`, marked as the asker
tm send-keys -t t -l 'show users'
tm send-keys -t t Enter
wait_for '^admin +ttyS0 .* \*$' || fail "console not in show users: $(screen | tail -5)"

# exit ends the program with status 0
tm send-keys -t t -l 'exit'
tm send-keys -t t Enter
wait_for '^\[exit [0-9]+\]' || fail "exit did not end mdsim: $(screen)"
screen | grep -q '^\[exit 0\]' || fail "mdsim exit status: $(screen | grep '^\[exit')"
screen | grep -qi -e 'sanitizer' -e 'runtime error' && fail "sanitizer report: $(screen)"
tm kill-session -t t 2>/dev/null

# a new console has the previous one's history (Up arrow)
start
tm send-keys -t t Up
expect_last '^MDS1# exit$' "Up recalls the last command of the previous console"
tm send-keys -t t Up
expect_last '^MDS1# show users$' "Up again"
tm send-keys -t t C-c
tm send-keys -t t -l 'exit'
tm send-keys -t t Enter
wait_for '^\[exit 0\]' || fail "second console did not exit cleanly: $(screen)"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all console checks passed"
