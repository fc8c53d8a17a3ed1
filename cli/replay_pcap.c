#include "replay_pcap.h"
#include "capture/capture.h"
#include "lab/lab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct replay_pcap {
    struct lab *lab;
    FILE *file;
    const char *path;
    struct capture *cap;
    const char **names;
    int *ids;
};

static enum capture_format format_of(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".pcap") == 0 ? CAPTURE_PCAP : CAPTURE_PCAPNG;
}

struct replay_pcap *replay_pcap_start(struct lab *lab, const char *path, FILE *err)
{
    struct replay_pcap *rp = calloc(1, sizeof *rp);
    if (!rp)
        abort();
    rp->lab = lab;
    rp->path = path;
    lab_lock(lab);
    bool busy = lab_observer(lab, LAB_OBS_CAPTURE) != NULL; /* a served lab's: checked before the file is touched */
    lab_unlock(lab);
    if (busy) {
        fprintf(err, "mdsim: --pcap: a capture is already running in this lab (`lab capture`, ethanalyzer):"
                     " one at a time\n");
        free(rp);
        return NULL;
    }
    rp->file = fopen(path, "wb");
    if (!rp->file) {
        fprintf(err, "mdsim: cannot write %s: %s\n", path, strerror(errno));
        free(rp);
        return NULL;
    }
    lab_lock(lab);
    int n = lab_switch_count(lab);
    rp->names = calloc((size_t)n + 1, sizeof *rp->names);
    rp->ids = calloc((size_t)n + 1, sizeof *rp->ids);
    if (!rp->names || !rp->ids)
        abort();
    for (int i = 0; i < n; i++) {
        rp->names[i] = lab_switch_name(lab, i);
        rp->ids[i] = lab_switch_id(lab, i);
    }
    struct capture_switches sw = {n, rp->names, rp->ids};
    rp->cap = capture_start(lab_ipnet(lab), rp->file, format_of(path), &sw);
    if (!rp->cap)
        abort();
    lab_set_observer(lab, LAB_OBS_CAPTURE, rp->cap, NULL); /* the one tap is taken: ethanalyzer waits */
    lab_unlock(lab);
    return rp;
}

int replay_pcap_stop(struct replay_pcap *rp, FILE *err)
{
    if (!rp)
        return 0;
    lab_lock(rp->lab);
    lab_set_observer(rp->lab, LAB_OBS_CAPTURE, NULL, NULL);
    bool ok = capture_stop(rp->cap);
    lab_unlock(rp->lab);
    ok = fclose(rp->file) == 0 && ok;
    if (!ok)
        fprintf(err, "mdsim: cannot write %s: %s\n", rp->path, strerror(errno));
    free(rp->names);
    free(rp->ids);
    free(rp);
    return ok ? 0 : 1;
}
