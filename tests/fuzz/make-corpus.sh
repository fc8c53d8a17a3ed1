#!/bin/sh
# Seed corpora and dictionaries for the fuzz targets, written to
# OUTDIR/session, OUTDIR/terminal and OUTDIR/*.dict (docs/fuzzing.md).
#   session:  the command lines of the golden transcripts (output lines
#             dropped), with "@@N" where the transcript moves to switch N
#   terminal: a few byte streams of telnet and SSH clients: negotiation,
#             NAWS, escape keys, editing keys, the pager, logins
#   session.dict: every keyword of docs/commands.md, for -dict=
#   terminal.dict: telnet commands and escape sequences
# usage: make-corpus.sh OUTDIR
set -e
out=${1:?usage: make-corpus.sh OUTDIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/session" "$out/terminal"

# A transcript line is a command when it starts with the prompt of a
# switch: its lab name, or a host name a `switchname` gave it earlier. A
# transcript is cut into pieces of about eight commands, each starting at
# exec mode (or at config mode, after a `configure terminal`): short inputs
# run fast, and the fuzzer splices them.
for t in "$src"/tests/transcripts/*.txt; do
    awk -v lab="$src/examples/labs/san-extension.lab" -v base="$out/session/$(basename "$t" .txt)" '
        BEGIN {
            n = 0
            while ((getline l < lab) > 0)
                if (l ~ /^switch /) { split(l, f, " "); sw[f[2]] = n++ }
            cur = 0; piece = 0; lines = 99
        }
        /^!( |$)/ { next }
        match($0, /^[A-Za-z][A-Za-z0-9_-]*(\([a-z(-]*\))?#/) {
            prompt = substr($0, 1, RLENGTH)
            host = prompt; sub(/[(#].*/, "", host)
            if (!(host in sw)) next
            cmd = substr($0, RLENGTH + 1); sub(/^ /, "", cmd)
            if (lines >= 8 && (prompt !~ /\(/ || prompt ~ /\(config\)#$/)) {
                if (piece) close(file)
                file = sprintf("%s-%02d", base, ++piece); lines = 0
                if (sw[host]) print "@@" sw[host] > file
                if (prompt ~ /\(config\)#$/) print "configure terminal" > file
            } else if (sw[host] != cur) {
                print "@@" sw[host] > file
            }
            cur = sw[host]
            print cmd > file
            lines++
            if (cmd ~ /^(switchname|hostname) [A-Za-z][A-Za-z0-9_-]*$/) {
                split(cmd, f, " "); sw[f[2]] = cur
            }
        }' "$t"
done
# The directions of the harness, once each.
printf '@@m\nterminal length 5\nshow running-config\n@@q\nshow running-config\n@@e\nshow hardware\n' > "$out/session/pager"
printf '@@n\nwrite erase\n@@y\nreload\n@@o\nconfigure terminal\n@@a\n@@1\n@@p\nshow clock | include 20\nsh\t\n' > "$out/session/directions"

# Terminal streams: the first byte chooses the connection (fuzz_terminal.c).
# Bytes are printf escapes, kept as text until printf writes them (a shell
# string cannot hold a NUL).
IAC='\377'
tn_client="$IAC\375\001$IAC\375\003$IAC\373\037" # DO ECHO, DO SGA, WILL NAWS
naws="$IAC\372\037\000\120\000\030$IAC\360"      # 80 x 24
term() { # FILE FLAGS BYTES
    printf "\\$2$3" > "$out/terminal/$1"
}
term login-ok 000 "$tn_client${naws}admin\r\000admin\r\nshow version\r\nexit\r\n"
term login-bad 000 'guest\r\nguest\r\nadmin\r\n\010\177x\r\n\003'
term login-user 000 'admin\r\nadmin\r\nconfigure terminal\r\nusername bob password s3cret role network-operator\r\nend\r\nexit\r\n'
term editing 001 'show vers\t\r\nconf\tt\r\nint g2/1\r\nshow ?\033[A\033[D\033[D\033[3~\001\005\025\027\013\032\r\nsho\033OA\033[B\033[H\033[F\033[C\020\016\014clock\r\n'
term keys 001 'show clock\033[1~x\033[4~y\033[99~\033x\033[Z\010\177\003configure terminal\r\ninterface gigabitethernet 2/1\r\n\032'
term pager 001 'terminal length 4\r\nshow running-config\r\n \r\nq\r\nshow hardware\r\n    q'
term monitor 021 'terminal monitor\r\nconfigure terminal\r\nlogging monitor 7\r\nend\r\nshow sw\033[D\r\nterminal no monitor\r\nconf t\r\nno logging console\r\n\032show logging last 2\r\n'
term confirm 001 'write erase\r\ny\r\nreload\r\nn\r\nreload\r\n\003'
term telnet-cmds 001 "$IAC\361$IAC\366show$IAC$IAC\373\030$IAC\374\001$IAC\376\003$IAC\375\042$IAC\372\030\001$IAC\360\r\n$IAC\364show version\r\n$IAC\363"
term naws-small 001 "$IAC\372\037\000\030\000\002$IAC\360show running-config\r\n \r\n$IAC\372\037"
term operator 011 'configure terminal\r\nshow users\r\nexit\r\n'
term ssh-shell 004 'show version\r\n\033[A\r\nexit\r\n'
term ssh-batch 005 'show version\nshow clock ?\n! a comment\nconfigure terminal\nswitchname X1\r\nshow running-config | include switchname\n'
term ssh-exec 006 'show interface brief | include up'
term ssh-exec-pty 017 'configure terminal'
term window 301 'show running-config\r\n '
term bytewise 021 'show ver\t\r\n\033[A\r\n'
term chunks 061 'sh\033[A\033[B\033[C\033[Dclock\r\n'

# Dictionaries: words libFuzzer splices into inputs.
sed -n 's/^- `\(.*\)`.*/\1/p' "$src/docs/commands.md" | sed 's/<[^>]*>//g' | tr -c 'a-zA-Z0-9-\n' '\n' |
    grep -E '^[a-zA-Z][a-zA-Z0-9-]+$' | sort -u | sed 's/.*/"& "/' > "$out/session.dict"
printf '"%s"\n' '| ' '?' '\x09' 'gigabitethernet 2/1' 'g2/3-4' '10.1.1.1' '255.255.255.0' \
    '@@0' '@@1' '@@o' '@@m' '@@q' '@@y' '@@n' '@@p' >> "$out/session.dict"
printf '"%s"\n' '\xff\xfb' '\xff\xfc' '\xff\xfd' '\xff\xfe' '\xff\xfa\x1f' '\xff\xf0' '\xff\xff' \
    '\xff\xf4' '\xff\xf3' '\xff\xf6' '\x1b[' '\x1bO' '\x1b[3~' '\x1b[A' '\x0d\x0a' '\x0d\x00' 'admin\x0d\x0a' \
    'show running-config\x0d\x0a' > "$out/terminal.dict"
