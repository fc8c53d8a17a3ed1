/*
 * Frames between an attached mdsim and the lab's owner over the owner's
 * UNIX socket: one type byte, a 4-byte big-endian length, the payload
 * (at most WIRE_MAX bytes). docs/lab-owner.md lists the frame types.
 */
#ifndef MDSIM_OWNWIRE_H
#define MDSIM_OWNWIRE_H
#include <stddef.h>

enum { WIRE_MAX = 65536, WIRE_VERSION = 1 };
#define WIRE_MAX_TEXT "64 KiB"

enum wire_type {
    W_HELLO = 'H',   /* owner: "mdsim-owner VERSION PID" */
    W_REQUEST = 'Q', /* client: "key=value" lines: job, switch, options */
    W_FILE = 'F',    /* client: a replay file starts: "+NAME", or "!NAME" unreadable */
    W_DATA = 'D',    /* client: the file's next bytes */
    W_GO = 'G',      /* client: every file sent, run */
    W_INPUT = 'I',   /* client: keys typed */
    W_WINDOW = 'W',  /* client: "ROWS COLS" */
    W_EOF = 'E',     /* client: end of input */
    W_OUT = 'O',     /* owner: bytes for stdout */
    W_ERR = 'R',     /* owner: bytes for stderr */
    W_EXIT = 'X',    /* owner: "CODE" (or "2 usage"), the last frame */
};

/* 0, or -1 when the peer is gone. Payloads over WIRE_MAX are split. */
int wire_send(int fd, int type, const void *p, size_t n);
int wire_send_str(int fd, int type, const char *s);
/* What wire_recv returns instead of a frame's type, so that the side that
 * got a bad frame can say what was wrong with it. */
enum wire_fail {
    WIRE_TIMEOUT = 0,  /* no frame began within timeout_ms */
    WIRE_GONE = -1,    /* the peer closed (or broke off within a frame) */
    WIRE_TOO_BIG = -2, /* a length over WIRE_MAX: *n is the length announced */
    WIRE_NO_TYPE = -3, /* a type byte of 0 */
    WIRE_CUT = -4,     /* a frame began but did not end within the socket's
                        * receive timeout (SO_RCVTIMEO) */
};

/* Waits up to timeout_ms (-1: for ever) for a frame and reads it whole
 * into buf (WIRE_MAX + 1 bytes, NUL-terminated). Returns its type (> 0),
 * or one of enum wire_fail; after an error < 0 the stream is lost. */
int wire_recv(int fd, char *buf, size_t *n, int timeout_ms);
/* What a wire_recv result <= 0 means, for messages: "a frame cut short...". */
const char *wire_fail_text(int r);

#endif
