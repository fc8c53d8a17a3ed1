/* The browser's side of `mdsim serve --http PORT` (docs/http.md): one page
 * per lab with its topology, a console per switch and live plots, over
 * HTTP and WebSocket (Debian's civetweb).
 *
 * As SSH (docs/ssh-module.md), it is a module, mdsim_http.so, that only
 * `serve --http` loads: no other start of mdsim pays for the library. */
#ifndef MDSIM_HTTP_H
#define MDSIM_HTTP_H
#include <stdatomic.h>
#include <stddef.h>

struct lab;
struct http_server;

struct http_opts {
    struct lab *lab;
    const char *bind;        /* numeric address, as serve's --bind */
    int port;                /* 0: a free port */
    int idle_timeout;        /* seconds of a console without input, 0 none, as telnet's */
    const atomic_bool *stop; /* serve is stopping: consoles end */
};

struct http_module {
    /* Listens and serves on threads of its own; NULL with a message in err. */
    struct http_server *(*server_new)(const struct http_opts *o, char *err, size_t n);
    int (*port)(const struct http_server *srv); /* the port it listens on */
    /* Ends every console and connection (after serve's stop flag is set). */
    void (*server_free)(struct http_server *srv);
};

extern const struct http_module mdsim_http_module;

/* Loads mdsim_http.so as ssh_module_load loads SSH's (cli/ssh_load.c). */
const struct http_module *http_module_load(char *err, size_t n);

#endif
