/* The SSH side of `mdsim serve` (libssh server API): the lab's host key,
 * password logins, a shell with or without a pty, exec requests.
 *
 * It is a module, mdsim_ssh.so beside the program, that `serve` alone
 * loads: libssh and what it pulls in (libcrypto, Kerberos) cost every
 * other start of mdsim about 5 ms (docs/ssh-module.md). */
#ifndef MDSIM_SSH_H
#define MDSIM_SSH_H
#include "telnet.h"

struct lab;
struct ssh_server;

struct ssh_module {
    /* Loads the lab's host key, generating and keeping it on first use.
     * Call before any thread starts; NULL with a message in err on failure. */
    struct ssh_server *(*server_new)(struct lab *lab, char *err, size_t n);
    void (*server_free)(struct ssh_server *srv);
    /* Serves one accepted connection to its end (on its own thread); closes fd. */
    void (*serve)(struct ssh_server *srv, int fd, const char *from, const struct term_opts *o);
};

/* What the module exports: its one symbol. */
extern const struct ssh_module mdsim_ssh_module;

/* Loads the module from beside the running program, else from where it is
 * installed (cli/ssh_load.c); NULL with a message in err when it cannot. */
const struct ssh_module *ssh_module_load(char *err, size_t n);

#endif
