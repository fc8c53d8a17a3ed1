#!/bin/sh
# The console for a careless user: window size (SIGWINCH), type-ahead during
# output, Ctrl-Z at exec, the line it is on. tmux, as test_console.sh.
# usage: test_console_window.sh MDSIM
mdsim=$(realpath "$1")
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed"
    exit 0
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

# A careless console user: the window changes size, keys typed during
# output, Ctrl-Z at exec, and which line the console is on.
# (Harness: as tests/scripts/test_console.sh.)
start
expect_last '^MDS1# ?$' "first prompt"

# terminal length and width follow the window (120x40 at start), and its
# changes (SIGWINCH), as telnet's NAWS and SSH's window-change do
tm send-keys -t t -l 'show terminal'
tm send-keys -t t Enter
wait_for '^Length: 40 lines, Width: 120 columns$' || fail "start size not followed: $(screen | tail -4)"
tm resize-window -t t -x 100 -y 30 2>/dev/null || tm resize-pane -t t -x 100 -y 30
sleep 0.5
tm send-keys -t t -l 'show terminal'
tm send-keys -t t Enter
wait_for '^Length: 30 lines, Width: 100 columns$' || fail "resize not followed: $(screen | tail -4)"

# `show terminal` and `show users` name the console's line alike
screen | grep -q '^TTY: /dev/ttyS0 ' || fail "show terminal line: $(screen | grep TTY)"
tm send-keys -t t -l 'show users'
tm send-keys -t t Enter
wait_for '^admin +ttyS0 .* \*$' || fail "console not ttyS0 in show users: $(screen | tail -5)"

# Ctrl-Z at exec: a fresh prompt, no error, and nothing for the history
tm send-keys -t t -l 'clear screen'
tm send-keys -t t C-l
tm send-keys -t t C-u
tm send-keys -t t C-z
expect_last '^MDS1# ?$' "Ctrl-Z at exec"
screen | grep -q "Invalid command" && fail "Ctrl-Z at exec ran something: $(screen | tail -6)"
tm send-keys -t t -l 'conf t'
tm send-keys -t t Enter
expect_last '^MDS1\(config\)# ?$' "conf t"
# at (config-if)#, `sh` + Tab is `show` or `shutdown`: no completion
tm send-keys -t t -l 'int g2/2'
tm send-keys -t t Enter
expect_last '^MDS1\(config-if\)# ?$' "int g2/2"
tm send-keys -t t -l 'sh'
tm send-keys -t t Tab
sleep 0.3
expect_last '^MDS1\(config-if\)# sh$' "sh + Tab at (config-if)# completed to one of show, shutdown"
tm send-keys -t t C-u
tm send-keys -t t C-z
expect_last '^MDS1# ?$' "Ctrl-Z in config"
tm send-keys -t t Up
expect_last '^MDS1# int g2/2$' "Up after Ctrl-Z recalls the last typed line, not Ctrl-Z's end"
tm send-keys -t t C-u

# keys typed while a long output is printed go to the next line, not to
# the --More-- pager (which would take the `s` of `show` as `stop`)
# (one write: both lines are there before the first one's output)
tm send-keys -t t -l "$(printf 'show interface\rshow switchname\r')"
wait_for '[-]-More--' || fail "no pager: $(screen | tail -4)"
screen | grep -q "Invalid command" && fail "type-ahead taken by the pager: $(screen | tail -6)"
tm send-keys -t t -l 'q'
wait_for '^MDS1$' || fail "the typed-ahead show switchname did not run: $(screen | tail -6)"
expect_last '^MDS1# ?$' "prompt after the typed-ahead line"

tm send-keys -t t -l 'exit'
tm send-keys -t t Enter
wait_for '^\[exit [0-9]+\]' || fail "exit did not end mdsim: $(screen)"
screen | grep -qi -e 'sanitizer' -e 'runtime error' && fail "sanitizer report: $(screen)"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all console window checks passed"
