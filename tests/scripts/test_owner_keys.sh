#!/bin/bash
# A console attached to a lab that `mdsim serve` owns (docs/lab-owner.md),
# on a real terminal (tmux): `?` answers at once, Tab completes, Ctrl-C
# ends a real-time `sleep` at once, the pager stops at --More--, the
# window size reaches the session at start and on a resize, and `show
# users` lists the console beside the served sessions. (Before, a console
# beside serve was a process of its own: 80x24 whatever the window, and
# `show users` listed only itself.)
# usage: test_owner_keys.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
# a background owner's stderr is /dev/null: sanitizer reports go to files
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$work/sanitizer"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$work/sanitizer"
command -v tmux > /dev/null || { echo "SKIP: tmux is not installed"; exit 77; }
db="$work/lab.db"
serve_start "$db" || { fail "serve"; finish; }
export TMUX_TMPDIR="$work"
tm() { tmux -L owner-keys -f /dev/null "$@"; }
trap 'tm kill-server 2> /dev/null; cleanup' EXIT
screen() { tm capture-pane -p -t t 2> /dev/null; }
wait_for() { # PATTERN [TENTHS]
    for _ in $(seq "${2:-50}"); do
        screen | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
last_line() {
    local y
    y=$(tm display -p -t t '#{cursor_y}')
    screen | sed -n "$((y + 1))p"
}
expect_last() { # PATTERN WHAT
    for _ in $(seq 50); do
        last_line | grep -Eq -- "$1" && return 0
        sleep 0.1
    done
    fail "$2: cursor line is '$(last_line)'
$(screen)"
}

# a served session stays logged in meanwhile
printf '@timeout 120\n@wait %s/done\nshow switchname\n' "$work" | timeout 120 "$client" 127.0.0.1 "$TP" > "$work/t.out" 2>&1 &
tpid=$!
tm new-session -d -s t -x 120 -y 40 "$mdsim --db $db; echo \"[exit \$?]\"; sleep 60" ||
    { fail "tmux"; finish; }
wait_for '^MDS1#' 600 || { fail "no prompt: $(screen)"; finish; }

tm send-keys -t t -l 'show terminal'
tm send-keys -t t Enter
wait_for 'Length: 40 lines, Width: 120 columns' || fail "window size at start: $(screen | grep Length)"
tm resize-window -t t -x 100 -y 30 2> /dev/null || tm refresh-client -C 100x30
tm send-keys -t t -l 'show terminal'
tm send-keys -t t Enter
wait_for 'Length: 30 lines, Width: 100 columns' || fail "window size after a resize: $(screen | grep Length)"

tm send-keys -t t -l 'show users'
tm send-keys -t t Enter
wait_for '^admin +pts/[0-9]+ .*session=telnet' || fail "the telnet session is not in the console's show users: $(screen)"
wait_for '^admin +ttyS0 .*\*$' || fail "the console is not in its own show users: $(screen)"

tm send-keys -t t -l 'conf t'
tm send-keys -t t Enter
tm send-keys -t t -l 'int g2/2'
tm send-keys -t t Enter
expect_last '^MDS1\(config-if\)# ?$' "int g2/2"
tm send-keys -t t -l 'switchport mtu ?'
wait_for '<576-9000>' || fail "? did not answer: $(screen)"
expect_last '^MDS1\(config-if\)# switchport mtu ?$' "line kept after ?"
tm send-keys -t t C-u C-z
expect_last '^MDS1# ?$' "Ctrl-Z"
tm send-keys -t t -l 'sh'
tm send-keys -t t Tab
expect_last '^MDS1# show ?$' "Tab"
tm send-keys -t t C-u

# Ctrl-C ends a sleep on the owner's real-time clock
tm send-keys -t t -l 'sleep 60'
tm send-keys -t t Enter
sleep 1
start=$SECONDS
tm send-keys -t t C-c
expect_last '^MDS1# ?$' "Ctrl-C during sleep"
[ $((SECONDS - start)) -le 5 ] || fail "Ctrl-C took $((SECONDS - start)) s to end the sleep"

# the pager
tm send-keys -t t -l 'terminal length 5'
tm send-keys -t t Enter
tm send-keys -t t -l 'show running-config'
tm send-keys -t t Enter
wait_for '^--More--' || fail "no --More--: $(screen)"
tm send-keys -t t -l q
expect_last '^MDS1# ?$' "q at --More--"

tm send-keys -t t -l 'exit'
tm send-keys -t t Enter
wait_for '^\[exit 0\]' || fail "exit: $(screen)"
touch "$work/done"
wait "$tpid" || fail "the served session: $(cat "$work/t.out")"
for f in "$work"/sanitizer.*; do [ -e "$f" ] && fail "sanitizer report: $(head -30 "$f")"; done
finish
