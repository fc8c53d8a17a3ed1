#!/bin/sh
# render -> replay -> render: for each tests/configs/*.cfg, apply it on a
# fresh lab, take the body of `show running-config` (without the !Command
# and !Time lines), replay that body in config mode on another fresh lab,
# render again: the two renderings must be identical. A third round and a
# save + reload must give the same text too.
# usage: test_render_replay.sh MDSIM
mdsim=$1
here=$(cd "$(dirname "$0")" && pwd)
configs="$here/../configs"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# render LAB OUT: the running-config body of MDS1.
render() {
    printf 'show running-config\n' | "$mdsim" --db "$1" > "$dir/raw" 2>&1 || return 1
    # drop the echoed command, the !Command/!Time header and the blank line after it
    sed -e '1{/^[^ ]*# show running-config$/d}' "$dir/raw" |
        sed -e '/^!Command: /d' -e '/^!Time: /d' | sed -e '1{/^$/d}' > "$2"
}

# replay_body BODY LAB: configure terminal, then every line of BODY.
replay_body() {
    { echo "configure terminal"; cat "$1"; echo "end"; } > "$dir/script"
    "$mdsim" --db "$2" replay "$dir/script" > "$dir/replay.out" 2> "$dir/replay.err"
}

n=0
for cfg in "$configs"/*.cfg; do
    name=$(basename "$cfg" .cfg)
    n=$((n + 1))
    rm -f "$dir"/*.db*
    if ! "$mdsim" --db "$dir/a.db" replay "$cfg" > "$dir/apply.out" 2> "$dir/apply.err"; then
        fail "$name: the config does not apply: $(cat "$dir/apply.err")"
        continue
    fi
    render "$dir/a.db" "$dir/r1" || { fail "$name: render 1 failed"; continue; }
    cp "$dir/raw" "$dir/raw1"
    head -1 "$dir/r1" | grep -q '^version ' || fail "$name: body does not start with version: $(head -2 "$dir/r1")"
    grep -q -e '^!' -e '# ' "$dir/r1" && fail "$name: header or prompt left in the body: $(grep -e '^!' -e '# ' "$dir/r1")"

    replay_body "$dir/r1" "$dir/b.db" || fail "$name: replaying the rendered body failed: $(cat "$dir/replay.err")"
    render "$dir/b.db" "$dir/r2" || fail "$name: render 2 failed"
    diff -u "$dir/r1" "$dir/r2" > "$dir/diff" || fail "$name: render -> replay -> render differs:
$(cat "$dir/diff")"

    replay_body "$dir/r2" "$dir/c.db" || fail "$name: replay 2 failed: $(cat "$dir/replay.err")"
    render "$dir/c.db" "$dir/r3"
    cmp -s "$dir/r2" "$dir/r3" || fail "$name: third round differs"

    # the rendering as shown, with its !Command/!Time header, replays too:
    # lines starting with `!` are comments in a script
    sed -e '1{/^[^ ]*# show running-config$/d}' "$dir/raw1" > "$dir/shown"
    grep -q '^!Time: ' "$dir/shown" || fail "$name: no !Time line in the rendering"
    rm -f "$dir/d.db"*
    replay_body "$dir/shown" "$dir/d.db" || fail "$name: the rendering with its header does not replay: $(cat "$dir/replay.err")"
    render "$dir/d.db" "$dir/r5"
    cmp -s "$dir/r1" "$dir/r5" || fail "$name: replaying the rendering with its header differs"

    # save, reload: the startup-config goes through the parser too
    printf 'copy running-config startup-config\nreload\n' | "$mdsim" --db "$dir/a.db" > "$dir/reload.out" 2>&1 ||
        fail "$name: save + reload failed: $(cat "$dir/reload.out")"
    grep -q '^% ' "$dir/reload.out" && fail "$name: reload reported errors: $(grep '^% ' "$dir/reload.out")"
    render "$dir/a.db" "$dir/r4"
    diff -u "$dir/r1" "$dir/r4" > "$dir/diff" || fail "$name: after save + reload differs:
$(cat "$dir/diff")"
done
[ $n -ge 3 ] || fail "only $n configurations found in $configs"

# The check itself must be able to fail: a body that loses a line on
# replay is caught (replaying without the last port block).
cfg="$configs/ge_basic.cfg"
rm -f "$dir"/*.db*
"$mdsim" --db "$dir/a.db" replay "$cfg" > /dev/null 2>&1
render "$dir/a.db" "$dir/r1"
grep -v 'switchport description spare' "$dir/r1" > "$dir/r1-cut"
replay_body "$dir/r1-cut" "$dir/b.db"
render "$dir/b.db" "$dir/r2"
cmp -s "$dir/r1" "$dir/r2" && fail "self-check: a lost line went unnoticed"

if [ $fails -ne 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "render -> replay -> render identical for $n configurations"
