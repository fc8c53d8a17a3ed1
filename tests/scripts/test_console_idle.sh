#!/bin/bash
# `line console` / `exec-timeout MINUTES`: the local console logs out after
# that long without a key, and mdsim exits with status 0. One minute is the
# least the switch takes, so this test takes a minute.
# usage: test_console_idle.sh MDSIM
. "$(dirname "$0")/../tools/serve_lib.sh"
printf 'configure terminal\nline console\nexec-timeout 1\nend\n@timeout 100\n@expect Idle timeout, logging out.\n' |
    timeout 150 "$client" -c "$mdsim" "$work/lab.db" > "$work/out" 2>&1 ||
    fail "the console did not log out after its exec-timeout: $(tail -5 "$work/out")"
finish
