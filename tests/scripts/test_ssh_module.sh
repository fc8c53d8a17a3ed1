#!/bin/bash
# The SSH server is a module beside the program (docs/ssh-module.md): a
# console, a replay and `lab show` work without it; `serve` without it
# stops with a clear message before listening, and the lab is untouched.
# usage: test_ssh_module.sh MDSIM
mdsim=$1
command -v sqlite3 > /dev/null || { echo "SKIP: no sqlite3 (scripts/install-deps.sh installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

[ -f "$(dirname "$mdsim")/mdsim_ssh.so" ] || fail "no mdsim_ssh.so beside $mdsim"
cp "$mdsim" "$work/mdsim" # alone, without the module
ldd "$work/mdsim" | grep -q libssh && fail "mdsim itself links libssh"

printf 'show switchname\n' > "$work/show.txt"
"$work/mdsim" --db "$work/lab.db" replay "$work/show.txt" > "$work/out" 2>&1 ||
    fail "replay without the module: $(cat "$work/out")"
grep -q "^MDS1$" "$work/out" || fail "replay output: $(cat "$work/out")"
dump() { sqlite3 "$work/lab.db" .dump | md5sum; }
before=$(dump)

timeout 20 "$work/mdsim" --db "$work/lab.db" serve --telnet-port 0 --ssh-port 0 > "$work/serve.out" 2> "$work/serve.err"
rc=$?
[ "$rc" -eq 1 ] || fail "serve without the module exited $rc: $(cat "$work/serve.err")"
grep -q "mdsim_ssh.so beside the program" "$work/serve.err" || fail "serve's message: $(cat "$work/serve.err")"
grep -q "ready" "$work/serve.err" && fail "serve said it was ready without SSH"
[ "$(dump)" = "$before" ] || fail "serve without the module changed the lab"

# With the module beside it, the same copy serves SSH.
cp "$(dirname "$mdsim")/mdsim_ssh.so" "$work/"
timeout 20 "$work/mdsim" --db "$work/lab2.db" serve --telnet-port 0 --ssh-port 0 > "$work/serve2.out" 2> "$work/serve2.err" &
pid=$!
for _ in $(seq 100); do grep -q "^mdsim serve: ready" "$work/serve2.err" && break; sleep 0.1; done
grep -q "^mdsim serve: ready" "$work/serve2.err" || fail "serve with the module beside the copy: $(cat "$work/serve2.err")"
kill -TERM "$pid" 2>/dev/null
wait "$pid"

[ "$fails" -eq 0 ] && echo ok
exit $((fails > 0))
