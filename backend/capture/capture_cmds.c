/* `ethanalyzer local interface gigabitethernet S/P [limit-captured-frames
 * N] write bootflash:NAME` (docs/capture.md): NX-OS's ethanalyzer
 * captures a supervisor's own interfaces (mgmt, inband); a Gigabit
 * Ethernet port of the data plane is an mdsim extension, with the same
 * keywords. It captures until N frames (NX-OS's default 10), the
 * bootflash's file size, CAPTURE_WAIT_S of lab time or Ctrl-C, then
 * writes a pcapng file to bootflash:. The lab has one tap: one capture
 * at a time (lab_observer LAB_OBS_CAPTURE). */
#include "session.h"
#include "feature.h"
#include "lab/lab.h"
#include "capture.h"
#include "bootflash/bootflash.h"
#include "interface/ge.h"
#include <stdlib.h>
#include <string.h>

#define CAPTURE_WAIT_S 60 /* lab seconds an idle port is waited on */
#define STEP_NS 100000000ULL

/* The switches' names and ids, as the capture keeps them until it stops. */
struct names {
    const char **names;
    int *ids;
};

static struct capture *start(struct session *s, FILE *f, const struct cmd_arg *p, long frames, struct names *nm)
{
    int n = lab_switch_count(s->lab);
    nm->names = calloc((size_t)n, sizeof *nm->names);
    nm->ids = calloc((size_t)n, sizeof *nm->ids);
    if (!nm->names || !nm->ids)
        abort();
    for (int i = 0; i < n; i++) {
        nm->names[i] = lab_switch_name(s->lab, i);
        nm->ids[i] = lab_switch_id(s->lab, i);
    }
    struct capture_switches sw = {n, nm->names, nm->ids};
    struct capture *c = capture_start(lab_ipnet(s->lab), f, CAPTURE_PCAPNG, &sw);
    if (!c)
        abort();
    capture_only_port(c, s->sw, p->slot, p->port);
    capture_limit(c, (unsigned long)frames, BOOTFLASH_FILE_MAX);
    return c;
}

static int cmd_ethanalyzer(struct session *s, const struct cmd_args *a)
{
    const struct cmd_arg *p = arg_get(a, "port");
    long frames = arg_num(a, "frames", 10);
    const char *path = arg_str(a, "path");
    if (!ge_exists(s->lab, s->sw, p->slot, p->port))
        return cmd_error(s, "%% Invalid interface GigabitEthernet%d/%d", p->slot, p->port);
    if (!bootflash_name_ok(path) && !(strncmp(path, "bootflash:", 10) == 0 && bootflash_name_ok(path + 10)))
        return bootflash_save(s, path, NULL, 0); /* refuses the name, saying why, before any write */
    if (lab_observer(s->lab, LAB_OBS_CAPTURE))
        return cmd_error(s, "%% A capture is already running in this lab; try again when it ends");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return cmd_error(s, "%% Not enough memory for the capture");
    struct names nm;
    struct capture *c = start(s, f, p, frames, &nm);
    lab_set_observer(s->lab, LAB_OBS_CAPTURE, c, NULL);
    cmd_printf(s, "Capturing on GigabitEthernet%d/%d\n", p->slot, p->port);
    uint64_t until = lab_now(s->lab) + CAPTURE_WAIT_S * 1000000000ULL;
    while (!capture_done(c) && lab_now(s->lab) < until && cmd_wait_until(s, lab_now(s->lab) + STEP_NS))
        ;
    unsigned long got = capture_frames(c);
    lab_set_observer(s->lab, LAB_OBS_CAPTURE, NULL, NULL);
    bool ok = capture_stop(c);
    free(nm.names);
    free(nm.ids);
    ok = fclose(f) == 0 && ok;
    int rc = ok ? bootflash_save(s, path, (const unsigned char *)buf, len)
                : cmd_error(s, "%% Not enough memory for the capture");
    if (rc == 0)
        cmd_printf(s, "%lu packets captured\n", got);
    free(buf);
    return rc;
}

const struct cmd_def capture_cmds[] = {
    {MODES(MODE_EXEC),
     "ethanalyzer local interface gigabitethernet <port:slot/port> [limit-captured-frames <frames:1-100000>] write "
     "<path:word>",
     "ethanalyzer: Configure cisco packet analyzer\nlocal: Local capture\ninterface: Select interface to capture\n"
     "gigabitethernet: A data plane port (mdsim extension; NX-OS: mgmt, inband)\nport: Slot/port\n"
     "limit-captured-frames: Maximum number of frames to be captured (default 10)\nframes: Frames\n"
     "write: Filename to save capture to\npath: bootflash:NAME (pcapng)",
     cmd_ethanalyzer, CMD_ADMIN, 0, 0},
    {0},
};
