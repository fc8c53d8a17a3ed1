/*
 * What the browser's page shows, as JSON built in the program (the HTTP
 * module only carries it): the lab's topology with the state of its
 * tunnels, and the time series from a sample number on. Both read the
 * lab; the caller holds the lab lock and sends the text after releasing
 * it. docs/http.md has the fields.
 */
#ifndef MDSIM_HTTP_MODEL_H
#define MDSIM_HTTP_MODEL_H
#include <stdbool.h>
#include <stdint.h>
#include "strbuf.h"

struct lab;

/* {"switches": [{"name", "hostname", "ports": [...]}], "cables": [{"a",
 * "a_port", "b", "b_port"}], "netsim": [{"switch", "a_port", "b_port"}],
 * "tunnels": [{"switch", "name", "port", "peer", "state", "reason"}]} */
void http_topology_json(struct lab *lab, strbuf *out);

/* The series' rows from sample *next on, at most max_rows of the newest,
 * as series_write_json_from writes them; *next becomes the number after
 * the last row. False when the lab records no series or nothing is new. */
bool http_series_json(struct lab *lab, uint64_t *next, int max_rows, strbuf *out);

/* s as a JSON string, quotes included; bytes outside printable ASCII
 * become \u00XX, so any name gives valid JSON. */
void http_json_str(strbuf *out, const char *s);

#endif
