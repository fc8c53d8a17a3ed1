#include "ownwire.h"
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int send_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int wire_send(int fd, int type, const void *p, size_t n)
{
    const unsigned char *b = p;
    do {
        size_t k = n < WIRE_MAX ? n : WIRE_MAX;
        unsigned char h[5] = {(unsigned char)type, (unsigned char)(k >> 24), (unsigned char)(k >> 16),
                              (unsigned char)(k >> 8), (unsigned char)k};
        if (send_all(fd, h, sizeof h) != 0 || send_all(fd, b, k) != 0)
            return -1;
        b += k;
        n -= k;
    } while (n);
    return 0;
}

int wire_send_str(int fd, int type, const char *s) { return wire_send(fd, type, s, strlen(s)); }

/* The rest of a frame that has started: the socket's receive timeout
 * bounds how long a peer can leave it half sent. 0, WIRE_GONE or WIRE_CUT. */
static int recv_all(int fd, unsigned char *p, size_t n)
{
    while (n) {
        ssize_t r = recv(fd, p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return WIRE_CUT;
        if (r <= 0)
            return WIRE_GONE;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

int wire_recv(int fd, char *buf, size_t *n, int timeout_ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    int r;
    while ((r = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
        ;
    if (r == 0)
        return WIRE_TIMEOUT;
    if (r < 0)
        return WIRE_GONE;
    unsigned char h[5];
    int rc = recv_all(fd, h, sizeof h);
    if (rc != 0)
        return rc;
    uint32_t len = (uint32_t)h[1] << 24 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 8 | h[4];
    *n = len;
    if (len > WIRE_MAX)
        return WIRE_TOO_BIG;
    if (h[0] == 0)
        return WIRE_NO_TYPE;
    if ((rc = recv_all(fd, (unsigned char *)buf, len)) != 0)
        return rc;
    buf[len] = '\0';
    return h[0];
}

const char *wire_fail_text(int r)
{
    switch (r) {
    case WIRE_TIMEOUT: return "no frame in time";
    case WIRE_GONE: return "the connection closed";
    case WIRE_TOO_BIG: return "a frame longer than " WIRE_MAX_TEXT;
    case WIRE_NO_TYPE: return "a frame with no type (byte 0)";
    case WIRE_CUT: return "a frame cut short (begun, not finished in time)";
    default: return "a frame";
    }
}
