# Shared by tests/scripts/test_serve_*.sh (sourced, bash): a temporary
# directory, `mdsim serve` started on free high ports and always stopped,
# the test client built beside mdsim, and ssh options for OpenSSH.
mdsim=$1
for tool in ssh sshpass timeout; do
    command -v $tool > /dev/null ||
        { echo "SKIP: no $tool (scripts/install-deps.sh installs it)"; exit 77; }
done
client="$(dirname "$mdsim")/mdsim_client"
[ -x "$mdsim" ] && [ -x "$client" ] || { echo "FAIL: need $mdsim and $client"; exit 1; }
work=$(mktemp -d)
serve_pids=""
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cleanup() {
    for p in $serve_pids; do kill -TERM "$p" 2>/dev/null; done
    for p in $serve_pids; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE # through the EXIT trap
# A test killed outright (ctest's timeout) runs no trap: a watchdog stops
# its servers once it is gone. Forked twice, so that it is no child of the
# test and a bare `wait` there does not wait for it.
( (
    while kill -0 $$ 2> /dev/null; do sleep 1; done
    [ -f "$work/pids" ] && kill -KILL $(cat "$work/pids") 2> /dev/null
    rm -rf "$work"
) > /dev/null 2>&1 & )

SSHO="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=error
 -o ConnectTimeout=10 -o NumberOfPasswordPrompts=1 -o PubkeyAuthentication=no"

# ssh_as USER PASS PORT [ssh args...]: OpenSSH with a password, bounded.
ssh_as() {
    local user=$1 pass=$2 port=$3
    shift 3
    timeout 30 sshpass -p "$pass" ssh $SSHO -p "$port" "$user@127.0.0.1" "$@"
}

# serve_start DB [serve options...]: starts `mdsim serve` on ports picked
# from the PID and $RANDOM, retrying when taken. Sets TP and SP (telnet
# and SSH base ports), SERVE_PID and SERVE_ERR.
serve_start() {
    local db=$1 try
    shift
    for try in 1 2 3 4 5; do
        TP=$((10000 + (RANDOM * 31 + $$) % 22000)) # below the ephemeral ports (32768-)
        SP=$((TP + 16))
        SERVE_ERR="$work/serve.$TP.err"
        : > "$SERVE_ERR" # before the child opens it: the greps below must not race it
        "$mdsim" --db "$db" serve --telnet-port "$TP" --ssh-port "$SP" "$@" \
            > "$work/serve.$TP.out" 2> "$SERVE_ERR" &
        SERVE_PID=$!
        serve_pids="$serve_pids $SERVE_PID"
        echo "$SERVE_PID" >> "$work/pids"
        for _ in $(seq 200); do
            # not "ready" alone: "already served" has it too
            grep -q "^mdsim serve: ready" "$SERVE_ERR" && return 0
            kill -0 "$SERVE_PID" 2>/dev/null || break
            sleep 0.1
        done
        grep -q "cannot listen" "$SERVE_ERR" || break
    done
    echo "serve did not start: $(cat "$SERVE_ERR")"
    return 1
}

# serve_stop: SIGTERM, bounded wait; returns serve's exit status (and
# shows what serve said when that is not 0).
serve_stop() {
    kill -TERM "$SERVE_PID" 2>/dev/null
    for _ in $(seq 150); do kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVE_PID" 2>/dev/null
    wait "$SERVE_PID"
    local rc=$?
    [ $rc = 0 ] || echo "serve exited $rc: $(tail -5 "$SERVE_ERR")"
    return $rc
}

# Times and uptimes move with the wall clock when served.
mask_time() { sed -E 's/[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?/HH:MM:SS/g; /uptime/s/[0-9]+/N/g'; }

finish() {
    [ "$fails" -eq 0 ] && echo "ok" && exit 0
    echo "$fails check(s) failed"
    exit 1
}
