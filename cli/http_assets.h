/* The browser page's files compiled into mdsim_http.so: the table the
 * build's http_assets.c defines (web/embed.cmake), ending with a NULL path. */
#ifndef MDSIM_HTTP_ASSETS_H
#define MDSIM_HTTP_ASSETS_H
#include <stddef.h>

struct http_asset {
    const char *path, *type;
    const unsigned char *data;
    size_t len;
};
extern const struct http_asset http_assets[];

#endif
