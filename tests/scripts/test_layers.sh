#!/bin/sh
# The include layering is the build's (docs/include-layers.md): a file that
# includes a header of a layer above its own does not compile. Each probe
# is one file of a layer including one header, compiled as that layer's
# files are (CMakeLists.txt, mdsim_layer_probe) in the build that made
# MDSIM: the allowed includes must compile, so that the refused ones fail
# for the reason given, which the compiler must name. Skipped (77) without
# that build tree.
# usage: test_layers.sh MDSIM
mdsim=$1
build=$(cd "$(dirname "$mdsim")" && pwd)
[ -f "$build/CMakeCache.txt" ] || { echo "skip: no build tree beside $mdsim"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# probe NAME WHAT [REASON]: no REASON, it must compile; else it must fail
# and the compiler's messages must match REASON.
probe() {
    out=$(cmake --build "$build" --target "probe_$1" 2>&1)
    rc=$?
    if [ -z "$3" ]; then
        [ $rc = 0 ] && echo "ok: $2" || fail "$2 does not compile: $(echo "$out" | grep -m3 -i error)"
    elif [ $rc = 0 ]; then
        fail "$2 compiles"
    elif echo "$out" | grep -q -- "$3"; then
        echo "ok: refused, $2: $(echo "$out" | grep -m1 -- "$3" | sed 's/.*error: //')"
    else
        fail "$2 fails, but not for its reason ($3): $(echo "$out" | grep -m3 -i error)"
    fi
}

probe parser_ok "the parser includes session.h"
probe parser_backend "the parser includes feature.h" "feature.h: No such file"
probe parser_lab "the parser includes lab/lab.h" "lab/lab.h: No such file"
probe parser_cli "the parser includes telnet.h" "telnet.h: No such file"
probe backend_ok "the backend includes lab/lab.h"
probe backend_cli "the backend includes telnet.h" "telnet.h: No such file"
probe engine_ok "an engine object includes fabric/fabric.h"
probe engine_lab "an engine object includes lab/lab.h" "engine object includes neither the lab nor a session"
probe engine_session "an engine object includes session.h" "engine object includes neither the lab nor a session"
probe engine_user "an engine object includes user/user.h (which includes session.h)" \
    "engine object includes neither the lab nor a session"
probe cli_ok "a front-end includes telnet.h"

[ $fails = 0 ] || exit 1
echo "PASS"
