/* mdsim: the command line of the program itself. */
#include "replay.h"
#include "serve.h"
#include "cmdref.h"
#include "labcmd.h"
#include "lab_capture.h"
#include "check/check_main.h"
#include "owner.h"
#include "attach.h"
#include "slurp.h"
#include "class/class.h"
#include "lab/lab.h"
#include "feature.h"
#include "session.h"
#include "lab/ownership.h"
#include "store/store.h"
#include "lab/topology.h"
#include "system/system.h"
#include "mdsim_commit.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: mdsim [--db FILE] [--switch NAME] [--speed N] [COMMAND]\n"
    "       mdsim --version | --help\n"
    "\n"
    "  (none)                     console on the switch (stdin not a terminal: run\n"
    "                             the commands read from it and print the transcript)\n"
    "  replay [--check] [--verify] [--stop-on-error] [--strict-prompts] [--pace SEC]\n"
    "         FILE...            replay scripts or captured transcripts (- = stdin);\n"
    "                             a transcript's lines run in the modes their prompts\n"
    "                             name, unless --strict-prompts or --verify (which\n"
    "                             checks them; --follow-prompts: follow anyway);\n"
    "                             --pace: SEC seconds of lab time before each line\n"
    "         [--pcap FILE]      --pcap: every port that carries traffic, captured\n"
    "                             into FILE for Wireshark (pcapng; .pcap: classic)\n"
    "         [--series FILE [--plots DIR]]\n"
    "                             --series: every time series, sampled each second of\n"
    "                             lab time, into FILE (CSV; .json: JSON); --plots: SVG\n"
    "                             plots and a gnuplot script into DIR\n"
    "  lab create FILE            create the lab file (--db) from a lab topology FILE\n"
    "  lab list                   list the switches of the lab\n"
    "  lab show                   print the lab as a lab file: topology, starting configs\n"
    "  lab reset                  every switch (--switch: that one) back to its\n"
    "                             starting configuration, or factory without one\n"
    "  lab export --series FILE [--plots DIR]\n"
    "                             the time series the running lab recorded (`mdsim\n"
    "                             serve`, `series start`) into FILE (CSV; .json: JSON)\n"
    "  lab capture start [--port SW:S/P]... [--format pcap|pcapng] FILE|-\n"
    "                             capture the running lab's ports (--port: those,\n"
    "                             at most 64) into FILE, or stream it to stdout (-)\n"
    "                             until Ctrl-C or `lab capture stop` (pcapng; .pcap or\n"
    "                             --format pcap: classic pcap)\n"
    "  lab capture stop           end the capture `lab capture start` began\n"
    "  serve [--bind ADDR] [--telnet-port BASE] [--ssh-port BASE] [--speed N]\n"
    "        [--idle-timeout SEC] serve every switch: telnet and SSH on BASE + switch\n"
    "                             index (defaults 2323, 2222; 0: free ports the system\n"
    "                             picks), on 127.0.0.1 unless told\n"
    "        [--http PORT]        and the lab's page for a browser on PORT (0: a free\n"
    "                             one): topology, a console per switch, live plots\n"
    "  class create DIR --lab FILE --students N [--telnet-port BASE] [--ssh-port BASE]\n"
    "                             a class: N student labs made from the lab FILE, each\n"
    "                             student's user and password on their switches, the\n"
    "                             roster (DIR/roster.csv: switches, ports, passwords)\n"
    "  class serve DIR [--bind ADDR] [--speed N] [--idle-timeout SEC]\n"
    "                             serve every student's lab on the roster's ports\n"
    "  class stop DIR             stop the class's `class serve`\n"
    "  class reset DIR STUDENT    a student's lab (--switch: that switch) back to where\n"
    "                             it starts\n"
    "  check CHECKFILE [--db LAB | --class DIR] [--json FILE] [--csv FILE]\n"
    "                             check a student's lab, or every lab of a class,\n"
    "                             against CHECKFILE: a line per item per student\n"
    "                             (options after `check`; docs/check.md)\n"
    "  commands                   print the command reference (Markdown)\n"
    "\n"
    "  --version      print mdsim's version and the NX-OS release it emulates\n"
    "  --db FILE      the lab file (default: $MDSIM_DB, else $XDG_STATE_HOME/mdsim/lab.db)\n"
    "  --switch NAME  the switch to start on (default: the first)\n"
    "  --speed N      console and serve: the lab clock runs at N x the wall clock\n"
    "                 (default 1); 0: virtual time, as in replay\n";

struct opts {
    char db[4096];
    const char *sw;
    struct replay_opts replay;
    struct serve_opts serve;
    char ports[2800];     /* lab capture --port, comma-separated */
    int nports;
    const char *format;   /* lab capture --format */
    const char *lab_file; /* class create --lab */
    int students;         /* class create --students */
};

/* MDSIM_VERSION comes from project(... VERSION) in CMakeLists.txt, its one
 * definition, mdsim_commit from the build (cmake/commit.cmake); the
 * persona is the release `show version` prints. */

static void print_version(void)
{
    printf("mdsim %s (commit %s)\nemulates a Cisco MDS 9000 switch running NX-OS %s\n", MDSIM_VERSION, mdsim_commit,
           SYSTEM_RELEASE);
}

static int usage_error(const char *msg)
{
    if (msg)
        fprintf(stderr, "mdsim: %s\n", msg);
    fputs(usage, stderr);
    return 2;
}

/* An integer option in [lo, hi]. */
static bool num_opt(const char *s, long lo, long hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

/* `--port SW:S/P`, at most LABCAP_PORTS_MAX, each short (a switch's name
 * is at most 32 characters) and without the
 * list's separators (the owner checks that the port exists). */
static bool add_port(struct opts *o, const char *spec)
{
    size_t n = strlen(o->ports), len = strlen(spec);
    if (o->nports == LABCAP_PORTS_MAX) {
        fprintf(stderr, "mdsim: at most %d --port\n", LABCAP_PORTS_MAX);
        return false;
    }
    if (len == 0 || len > 40 || strcspn(spec, ",\n") != len || !strchr(spec, ':')) {
        fprintf(stderr, "mdsim: --port %.40s: SWITCH:SLOT/PORT, as MDS1:2/2\n", spec);
        return false;
    }
    snprintf(o->ports + n, sizeof o->ports - n, "%s%s", n ? "," : "", spec);
    o->nports++;
    return true;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
    static const struct option longopts[] = {
        {"db", required_argument, NULL, 'd'},   {"switch", required_argument, NULL, 's'},
        {"check", no_argument, NULL, 'c'},      {"verify", no_argument, NULL, 'v'},
        {"stop-on-error", no_argument, NULL, 'e'}, {"help", no_argument, NULL, 'h'},
        {"bind", required_argument, NULL, 'B'},   {"telnet-port", required_argument, NULL, 'T'},
        {"ssh-port", required_argument, NULL, 'S'}, {"speed", required_argument, NULL, 'V'},
        {"idle-timeout", required_argument, NULL, 'I'}, {"follow-prompts", no_argument, NULL, 'F'},
        {"strict-prompts", no_argument, NULL, 'P'}, {"pace", required_argument, NULL, 'p'},
        {"version", no_argument, NULL, 'W'},    {"lab", required_argument, NULL, 'L'},
        {"students", required_argument, NULL, 'N'}, {"pcap", required_argument, NULL, 'A'},
        {"series", required_argument, NULL, 'X'}, {"plots", required_argument, NULL, 'Y'},
        {"http", required_argument, NULL, 'H'},
        {"port", required_argument, NULL, 'O'}, {"format", required_argument, NULL, 'M'},
        {NULL, 0, NULL, 0},
    };
    int c;
    lab_default_path(o->db, sizeof o->db);
    o->serve = (struct serve_opts)SERVE_DEFAULTS;
    int follow = -1; /* --follow-prompts 1, --strict-prompts 0, neither -1 */
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'd': snprintf(o->db, sizeof o->db, "%s", optarg); break;
        case 's': o->sw = optarg; break;
        case 'c': o->replay.check = true; break;
        case 'v': o->replay.verify = true; break;
        case 'e': o->replay.stop_on_error = true; break;
        case 'F': follow = 1; break;
        case 'P': follow = 0; break;
        case 'p': if (!num_opt(optarg, 0, REPLAY_PACE_MAX_S, &o->replay.pace_s)) return -1; break;
        case 'h': fputs(usage, stdout); exit(0);
        case 'W': print_version(); exit(0);
        case 'L': o->lab_file = optarg; break;
        case 'A': o->replay.pcap = optarg; break;
        case 'X': o->replay.series = optarg; break;
        case 'Y': o->replay.plots = optarg; break;
        case 'O': if (!add_port(o, optarg)) return -1; break;
        case 'M': o->format = optarg; break;
        case 'N': if (!num_opt(optarg, 1, CLASS_STUDENTS_MAX, &o->students)) return -1; break;
        case 'B': o->serve.bind = optarg; break;
        case 'T': if (!num_opt(optarg, 0, 65535, &o->serve.telnet_base)) return -1; break;
        case 'S': if (!num_opt(optarg, 0, 65535, &o->serve.ssh_base)) return -1; break;
        case 'I': if (!num_opt(optarg, 0, 86400, &o->serve.idle_timeout)) return -1; break;
        case 'H': if (!num_opt(optarg, 0, 65535, &o->serve.http_port)) return -1; break;
        case 'V': {
            char *end;
            o->serve.speed = strtod(optarg, &end);
            if (*optarg == '\0' || *end != '\0' || !(o->serve.speed >= 0 && o->serve.speed <= 1e6))
                return -1;
            break;
        }
        default: return -1;
        }
    }
    /* A transcript's prompt names its switch and its mode: its lines run
     * there, unless --strict-prompts, or --verify (which checks the prompts
     * the switch prints) without --follow-prompts. */
    o->replay.follow_prompts = follow == 1 || (follow == -1 && !o->replay.verify);
    if (o->replay.plots && !o->replay.series) { /* the plots' gnuplot script reads the CSV */
        fputs("mdsim: --plots needs --series FILE\n", stderr);
        return -1;
    }
    return optind;
}

/* `lab create FILE`: before any lab is opened, so no default lab is made;
 * under the lab's owner lock, so nobody opens it half made. */
static int lab_create(const struct opts *o, const char *file)
{
    struct labown lo;
    char err[4400];
    int locked = labown_init(&lo, o->db, err, sizeof err) == 0 ? labown_try_lock(&lo, err, sizeof err) : -1;
    if (locked == 0)
        snprintf(err, sizeof err, "%s is in use by mdsim process %ld: it exists already", o->db,
                 (long)labown_holder(&lo));
    if (locked <= 0) {
        fprintf(stderr, "mdsim: %s\n", err);
        return 1;
    }
    char *text = slurp(file);
    if (!text) {
        labown_release(&lo);
        fprintf(stderr, "mdsim: cannot read %s: %s\n", file, strerror(errno));
        return 1;
    }
    int rc = topology_create(o->db, file, text, err, sizeof err);
    labown_release(&lo);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "%s%s\n", strncmp(err, file, strlen(file)) == 0 ? "" : "mdsim: ", err);
        return 1;
    }
    printf("created %s\n", o->db);
    return 0;
}

static int run(struct lab *lab, struct opts *o, int argc, char **argv)
{
    if (argc == 0) { /* a terminal's console always attaches (main) */
        char *stdin_file[] = {"-"};
        return replay_files(lab, stdin_file, 1, &o->replay);
    }
    if (strcmp(argv[0], "replay") == 0) {
        if (argc < 2)
            return usage_error("replay needs at least one file");
        return replay_files(lab, argv + 1, argc - 1, &o->replay);
    }
    if (strcmp(argv[0], "serve") == 0 && argc == 1)
        return serve_run(lab, o->db, &o->serve);
    if (strcmp(argv[0], "lab") == 0 && argc == 2 && strcmp(argv[1], "reset") == 0 && o->sw)
        return labcmd_reset(lab, o->replay.start_switch, stdout, stderr);
    if (strcmp(argv[0], "lab") == 0 && argc == 2 && strcmp(argv[1], "export") == 0)
        return o->replay.series ? labcmd_export(lab, o->replay.series, o->replay.plots, stdout, stderr)
                                : usage_error("lab export needs --series FILE");
    if (strcmp(argv[0], "lab") == 0 && argc >= 3 && strcmp(argv[1], "capture") == 0) {
        fprintf(stderr, "mdsim: lab capture: nobody runs %s: a capture is of a running lab (`mdsim serve`, a console);"
                        " `replay --pcap FILE` captures a replay\n", o->db);
        return 1;
    }
    int rc = strcmp(argv[0], "lab") == 0 && argc == 2 ? labcmd_run(lab, argv[1], stdout, stderr) : -1;
    return rc >= 0 ? rc : usage_error("unknown command");
}

/* PATH as the owner must see it: absolute, from our working directory;
 * false when it cannot be said in a request line. */
static bool abs_path(const char *path, char *buf, size_t n)
{
    char cwd[4096];
    if (path[0] == '/')
        return (size_t)snprintf(buf, n, "%s", path) < n && !strchr(buf, '\n');
    return getcwd(cwd, sizeof cwd) && (size_t)snprintf(buf, n, "%s/%s", cwd, path) < n && !strchr(buf, '\n');
}

/* `lab export` run by the lab's owner, which writes the files. */
static int export_attached(const struct attach_owner *ow, const struct opts *o, struct attach_job *j)
{
    char series[4096], plots[4096];
    if (!o->replay.series)
        return usage_error("lab export needs --series FILE");
    if (!abs_path(o->replay.series, series, sizeof series) ||
        (o->replay.plots && !abs_path(o->replay.plots, plots, sizeof plots))) {
        fprintf(stderr, "mdsim: lab export: a path too long, or with a line break\n");
        return 2;
    }
    j->job = "lab-export";
    j->series = series;
    j->plots = o->replay.plots ? plots : NULL;
    int rc = attach_run(ow, j);
    return rc == -2 ? usage_error(NULL) : rc;
}

/* `lab capture start [--port ...] [--format F] FILE|-`, `lab capture stop`:
 * the owner holds the capture; a file is written there, `-` streams here. */
static int capture_attached(const struct attach_owner *ow, const struct opts *o, int argc, char **argv,
                            struct attach_job *j)
{
    static char path[LABCAP_PATH_MAX];
    bool start = argc == 4 && strcmp(argv[2], "start") == 0;
    if (argc == 3 && strcmp(argv[2], "stop") == 0) {
        j->job = "lab-capture-stop";
    } else if (!start) {
        return usage_error("lab capture start FILE|- or lab capture stop");
    } else if (o->format && strcmp(o->format, "pcap") != 0 && strcmp(o->format, "pcapng") != 0) {
        return usage_error("--format pcap or pcapng");
    } else if (strcmp(argv[3], "-") == 0 && isatty(STDOUT_FILENO)) {
        fprintf(stderr, "mdsim: lab capture: not writing a capture to a terminal: pipe it (| tshark -i -)"
                        " or name a FILE\n");
        return 2;
    } else if (strcmp(argv[3], "-") != 0 && (argv[3][0] == '\0' || !abs_path(argv[3], path, sizeof path))) {
        fprintf(stderr, "mdsim: lab capture: a path empty, too long, or with a line break\n");
        return 2;
    } else {
        j->job = "lab-capture-start";
        j->capture = strcmp(argv[3], "-") == 0 ? "-" : path;
        j->ports = o->ports;
        j->format = o->format;
    }
    int rc = attach_run(ow, j);
    return rc == -2 ? usage_error(NULL) : rc;
}

/* The same job, run by the process that owns the lab (DESIGN.md rule 7). */
static int run_attached(const struct attach_owner *ow, struct opts *o, int argc, char **argv)
{
    char *stdin_file[] = {"-"};
    struct attach_job j = {.sw = o->sw, .check = o->replay.check, .verify = o->replay.verify,
                           .stop_on_error = o->replay.stop_on_error, .follow_prompts = o->replay.follow_prompts,
                           .pace_s = o->replay.pace_s};
    if (argc == 0) {
        j.job = isatty(STDIN_FILENO) ? "console" : "replay";
        j.files = stdin_file;
        j.nfiles = 1;
    } else if (strcmp(argv[0], "replay") == 0) {
        if (argc < 2)
            return usage_error("replay needs at least one file");
        static char series[4096], plots[4096]; /* the owner writes them */
        if ((o->replay.series && (!o->replay.series[0] || !abs_path(o->replay.series, series, sizeof series))) ||
            (o->replay.plots && (!o->replay.plots[0] || !abs_path(o->replay.plots, plots, sizeof plots)))) {
            fprintf(stderr, "mdsim: --series, --plots: a path empty, too long, or with a line break\n");
            return 2;
        }
        j.series = o->replay.series ? series : NULL;
        j.plots = o->replay.plots ? plots : NULL;
        static char pcap[LABCAP_PATH_MAX]; /* the owner writes it */
        if (o->replay.pcap && (!o->replay.pcap[0] || !abs_path(o->replay.pcap, pcap, sizeof pcap))) {
            fprintf(stderr, "mdsim: --pcap: a path empty, too long, or with a line break\n");
            return 2;
        }
        j.capture = o->replay.pcap ? pcap : NULL;
        j.job = "replay";
        j.files = argv + 1;
        j.nfiles = argc - 1;
    } else if (strcmp(argv[0], "serve") == 0 && argc == 1) {
        if (strcmp(ow->what, "serve") == 0)
            fprintf(stderr, "mdsim: %s is already served by another `mdsim serve` (process %ld); stop it first\n",
                    o->db, (long)ow->pid);
        else
        {
            char what[32];
            snprintf(what, sizeof what, "%s", ow->what);
            for (char *p = what; *p; p++) /* lab-reset: `mdsim lab reset` */
                *p = *p == '-' ? ' ' : *p;
            fprintf(stderr, "mdsim: %s is in use by `mdsim %s` (process %ld); `serve` must be the first"
                            " to open a lab: stop that one first\n", o->db, what, (long)ow->pid);
        }
        return 1;
    } else if (strcmp(argv[0], "lab") == 0 && argc == 2 && strcmp(argv[1], "export") == 0) {
        return export_attached(ow, o, &j);
    } else if (strcmp(argv[0], "lab") == 0 && argc >= 3 && strcmp(argv[1], "capture") == 0) {
        return capture_attached(ow, o, argc, argv, &j);
    } else if (strcmp(argv[0], "lab") == 0 && argc == 2 &&
               (strcmp(argv[1], "list") == 0 || strcmp(argv[1], "show") == 0 || strcmp(argv[1], "reset") == 0)) {
        j.job = strcmp(argv[1], "list") == 0 ? "lab-list" : strcmp(argv[1], "show") == 0 ? "lab-show" : "lab-reset";
    } else {
        return usage_error("unknown command");
    }
    int rc = attach_run(ow, &j);
    return rc == -2 ? usage_error(NULL) : rc;
}

/* The first process on a lab owns it: it opens the lab, listens for later
 * ones, runs its job, then serves those still attached until they leave. */
static int run_owner(struct labown *lo, struct opts *o, int argc, char **argv)
{
    char err[512];
    struct lab *lab = lab_open(o->db, err, sizeof err);
    if (!lab) {
        fprintf(stderr, "mdsim: %s\n", err);
        labown_release(lo);
        return 1;
    }
    char what[32]; /* one word: "console", "replay", "serve", "lab-reset" */
    bool lab_cmd = argc == 2 && strcmp(argv[0], "lab") == 0;
    snprintf(what, sizeof what, "%s%s%s", argc == 0 ? "console" : argv[0], lab_cmd ? "-" : "", lab_cmd ? argv[1] : "");
    if (owner_start(lab, lo, what, err, sizeof err) != 0) {
        fprintf(stderr, "mdsim: %s\n", err);
        lab_close(lab);
        labown_release(lo);
        return 1;
    }
    int rc;
    if (o->sw && (o->replay.start_switch = lab_switch_find(lab, o->sw)) < 0)
        rc = usage_error("no such switch in the lab");
    else
        rc = run(lab, o, argc, argv);
    bool serving = argc == 1 && strcmp(argv[0], "serve") == 0;
    if (!owner_finish(serving)) /* sessions still hold the lab: every command committed, just go */
        _exit(rc ? rc : 1);
    lab_close(lab);
    labown_release(lo);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "check") == 0) /* options of its own; it owns no lab */
        return check_main(argc - 1, argv + 1);
    struct opts o = {0};
    int first = parse_opts(argc, argv, &o);
    if (first < 0)
        return usage_error(NULL);
    argc -= first;
    argv += first;
    features_install();
    if (argc == 1 && strcmp(argv[0], "commands") == 0)
        return cmdref_print(stdout);
    if (argc >= 2 && strcmp(argv[0], "lab") == 0 && strcmp(argv[1], "create") == 0)
        return argc == 3 ? lab_create(&o, argv[2]) : usage_error("lab create needs one FILE");
    if (argc >= 1 && strcmp(argv[0], "class") == 0) {
        struct class_opts co = {.lab_file = o.lab_file, .students = o.students, .sw = o.sw, .serve = o.serve};
        return class_main(argc, argv, &co);
    }
    char err[4400];
    struct labown lo;
    struct attach_owner ow;
    int own = labown_init(&lo, o.db, err, sizeof err) == 0 ? attach_or_own(&lo, &ow, err, sizeof err) : -1;
    if (own < 0) {
        fprintf(stderr, "mdsim: %s\n", err);
        return 1;
    }
    /* A console's owner runs in the background, so that `exit` always
     * ends this process, whoever is still attached (docs/lab-owner.md). */
    if (own == 1 && argc == 0 && isatty(STDIN_FILENO)) {
        own = owner_spawn(&lo, o.serve.speed, err, sizeof err) == 0 ? attach_or_own(&lo, &ow, err, sizeof err) : -1;
        if (own != 0) { /* 1: it died at once and we hold the lock again */
            fprintf(stderr, "mdsim: %s\n", own > 0 ? "the lab's owner went away at once" : err);
            labown_release(&lo);
            return 1;
        }
    }
    if (own == 0 && !store_check_private(o.db, err, sizeof err)) { /* as opening it would */
        fprintf(stderr, "mdsim: %s\n", err);
        return 1;
    }
    return own ? run_owner(&lo, &o, argc, argv) : run_attached(&ow, &o, argc, argv);
}
