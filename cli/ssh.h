/* The SSH side of `mdsim serve` (libssh server API): the lab's host key,
 * password logins, a shell with or without a pty, exec requests. */
#ifndef MDSIM_SSH_H
#define MDSIM_SSH_H
#include "telnet.h"

struct lab;
struct ssh_server;

/* Loads the lab's host key, generating and keeping it on first use.
 * Call before any thread starts; NULL with a message in err on failure. */
struct ssh_server *ssh_server_new(struct lab *lab, char *err, size_t n);
void ssh_server_free(struct ssh_server *srv);

/* Serves one accepted connection to its end (on its own thread); closes fd. */
void ssh_serve(struct ssh_server *srv, int fd, const char *from, const struct term_opts *o);

#endif
