"""Runs a command under the parts of a systemd unit's sandbox that a process
can put on itself, for a test where systemd is not PID 1 (containers, CI):
NoNewPrivileges=, MemoryDenyWriteExecute= (the kernel's own PR_SET_MDWE,
Linux 6.3+), SystemCallFilter= with SystemCallErrorNumber=EPERM and
RestrictAddressFamilies= (seccomp, through libseccomp, which systemd
itself depends on). The settings are read from the unit, so the check
follows the unit; what could not be applied is said on stderr.

usage: /usr/bin/python3 unit_sandbox.py UNIT_FILE COMMAND [ARGS...]
"""
import ctypes
import os
import socket
import subprocess
import sys

PR_SET_NO_NEW_PRIVS, PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 38, 65, 1
SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_EQ = 4


def SCMP_ACT_ERRNO(e):
    return 0x00050000 | (e & 0xFFFF)


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


def unit_settings(path):
    """[Service] settings as (key, value) pairs, in order (a key may repeat)."""
    out, section = [], None
    for line in open(path):
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            out.append((key.strip(), value.strip()))
    return out


def syscall_groups():
    """{'@group': [names and @groups]} from systemd's own table."""
    groups, current = {}, None
    text = subprocess.run(["systemd-analyze", "syscall-filter"], capture_output=True,
                          text=True, check=True).stdout
    for line in text.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif line.strip() and not line.strip().startswith("#") and current is not None:
            current.append(line.strip())
    return groups


def expand(names, groups):
    out = set()
    for n in names:
        out |= expand(groups[n], groups) if n.startswith("@") else {n}
    return out


def allowed_syscalls(settings):
    """The allow list that SystemCallFilter= lines build: the first one
    without ~ starts it, every ~ line removes from it."""
    groups, allow = syscall_groups(), None
    for key, value in settings:
        if key != "SystemCallFilter" or not value:
            continue
        if value.startswith("~"):
            if allow is None:
                sys.exit("unit_sandbox: a deny-list SystemCallFilter is not supported here")
            allow -= expand(value[1:].split(), groups)
        else:
            allow = (allow or set()) | expand(value.split(), groups)
    return allow


def main():
    unit, cmd = sys.argv[1], sys.argv[2:]
    settings = unit_settings(unit)
    on = {k: v for k, v in settings}
    libc = ctypes.CDLL(None, use_errno=True)
    applied = []
    if on.get("NoNewPrivileges") == "yes":
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            sys.exit("unit_sandbox: no_new_privs failed")
        applied.append("NoNewPrivileges")
    if on.get("MemoryDenyWriteExecute") == "yes":
        if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) == 0:
            applied.append("MemoryDenyWriteExecute")
        else:
            print("unit_sandbox: this kernel has no PR_SET_MDWE (Linux 6.3+): "
                  "MemoryDenyWriteExecute not applied", file=sys.stderr)
    allow = allowed_syscalls(settings)
    families = on.get("RestrictAddressFamilies", "").split()
    if allow is None:
        sys.exit("unit_sandbox: the unit has no SystemCallFilter allow list")
    sc = ctypes.CDLL("libseccomp.so.2")
    sc.seccomp_init.restype = ctypes.c_void_p
    errno = getattr(__import__("errno"), on.get("SystemCallErrorNumber", "EPERM"))
    ctx = ctypes.c_void_p(sc.seccomp_init(ctypes.c_uint32(SCMP_ACT_ERRNO(errno))))
    for name in sorted(allow - ({"socket"} if families else set())):
        nr = sc.seccomp_syscall_resolve_name(name.encode())
        if nr >= 0:  # names of other architectures do not resolve
            if sc.seccomp_rule_add(ctx, ctypes.c_uint32(SCMP_ACT_ALLOW), nr, 0) != 0:
                sys.exit("unit_sandbox: cannot allow " + name)
    for fam in families:  # socket() for the listed families only
        cmp = ArgCmp(0, SCMP_CMP_EQ, getattr(socket, fam), 0)
        if sc.seccomp_rule_add_array(ctx, ctypes.c_uint32(SCMP_ACT_ALLOW),
                                     sc.seccomp_syscall_resolve_name(b"socket"), 1,
                                     ctypes.byref(cmp)) != 0:
            sys.exit("unit_sandbox: cannot allow socket(%s)" % fam)
    if sc.seccomp_load(ctx) != 0:
        sys.exit("unit_sandbox: seccomp_load failed")
    applied += ["SystemCallFilter"] + (["RestrictAddressFamilies"] if families else [])
    print("unit_sandbox: applied " + " ".join(applied), file=sys.stderr)
    os.execv(cmd[0], cmd)


main()
