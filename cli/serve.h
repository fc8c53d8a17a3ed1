/* `mdsim serve`: the lab daemon, a telnet and an SSH port per switch, and
 * with --http the lab's page. */
#ifndef MDSIM_SERVE_H
#define MDSIM_SERVE_H

struct lab;

struct serve_opts {
    const char *bind;  /* address to listen on; loopback by default */
    int telnet_base;   /* switch i listens on telnet_base + i */
    int ssh_base;      /* and on ssh_base + i */
    double speed;      /* lab clock = wall clock x speed */
    int idle_timeout;  /* seconds; 0 = none */
    int http_port;     /* the browser's page (docs/http.md); 0 any free port, -1 none */
};

#define SERVE_DEFAULTS {"127.0.0.1", 2323, 2222, 1.0, 1800, -1}

/* Serves the lab in the foreground until SIGINT or SIGTERM. db_path is
 * the lab file, locked so that a second `serve` of it is refused.
 * Returns the exit code. */
int serve_run(struct lab *lab, const char *db_path, const struct serve_opts *o);

#endif
