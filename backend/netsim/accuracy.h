/* netsim accuracy driver: runs one netsim pipe (pipe.h) under a synthetic
 * source and compares what came out with what was configured.
 *
 * One call = one case: a fresh engine (seeded), one pipe with the case's
 * delay / rate / qsize / drop, one source, a fixed number of packets, then
 * the engine runs until the pipe is empty. Everything is simulated time;
 * nothing reads a wall clock, so a case gives the same result every run.
 *
 * Sources (all periodic, so the only randomness is the pipe's drop stream):
 *   SATURATE  constant bit rate at NETSIM_ACC_LOAD_PCT % of the rate as seen
 *             *after* the injected drops, i.e. the arrival rate is
 *             1.05 * R / (1 - f) where f is the expected injected-drop
 *             fraction. Without the 1/(1 - f) a 10 % random drop would turn
 *             a 1.05x source into 0.945x and the link would idle; with it
 *             the serializer stays busy and the egress rate must be R.
 *   LIGHT     one packet every NETSIM_ACC_LIGHT_GAP serialization times
 *             (25 % utilisation): each packet finds the serializer idle, so
 *             no queueing enters the delay measurement.
 *
 * Definitions (the ones the test asserts; "send" = the netsim_pipe_send
 * call, "deliver" = the deliver callback, times in engine nanoseconds):
 *
 *   S           ideal serialization time of one packet, len * 8e9 / rate
 *               (real number; the pipe floors and carries, so a packet
 *               takes floor(S) or floor(S) + 1 ns).
 *   delay_mean  mean of (deliver - send) over the delivered packets sent
 *               at index >= warm-up.
 *   delay_net   delay_mean - S: what the delay line (plus any queue wait)
 *               added beyond the packet's own serialization.
 *   delay_err   LIGHT only: (delay_net - D) / D for a configured delay
 *               D > 0; for D = 0 the relative error against the expected
 *               one-way time instead: (delay_mean - S) / S.
 *   throughput  egress bits per second over the measured window: t_a = the
 *               delivery time of the first delivered packet sent at index
 *               >= warm-up, t_b = the last delivery of the run;
 *               throughput = 8 * (bytes delivered in (t_a, t_b]) /
 *               (t_b - t_a). Counting from one delivery to another removes
 *               the +-1 packet quantisation of a fixed time window.
 *   tput_err    (throughput - expected) / expected; expected = R for
 *               SATURATE, offered * (1 - f) for LIGHT (f expected injected
 *               fraction; informative only, the test does not assert it).
 *   drop fractions  per cause, over every arrival of the run (warm-up
 *               included: injected drops do not depend on the queue).
 *   nth_expected    exact count of nth drops for the run's arrival count.
 *   random z    (observed - f) / sigma, f = b p / (1 + (b - 1) p) and sigma
 *               from the renewal argument in accuracy.c (equal to the
 *               binomial sqrt(f (1 - f) / N) for burst 1, about sqrt(b)
 *               times larger for burst b). random_z_binomial uses the plain
 *               binomial sigma of f, for comparison only.
 */
#ifndef MDSIM_NETSIM_ACCURACY_H
#define MDSIM_NETSIM_ACCURACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NETSIM_ACC_PKT_LEN 1518u       /* default: full-size MTU-1500 L2 frame */
#define NETSIM_ACC_LOAD_PCT 105u       /* SATURATE offered load, % of rate */
#define NETSIM_ACC_LIGHT_GAP 4u        /* LIGHT period, in serialization times */
#define NETSIM_ACC_REL_TOL 0.01        /* |rate err|, |delay err| bound */
#define NETSIM_ACC_Z_TOL 3.0           /* |z| bound for random drops */

enum netsim_accuracy_traffic {
    NETSIM_ACC_SATURATE = 0,
    NETSIM_ACC_LIGHT,
};

enum netsim_accuracy_drop {
    NETSIM_ACC_DROP_NONE = 0,
    NETSIM_ACC_DROP_NTH,       /* drop nth value burst b */
    NETSIM_ACC_DROP_RANDOM,    /* drop random value (per 10,000) burst b */
};

struct netsim_accuracy_case {
    uint64_t delay_ns;          /* 0 = no delay configured */
    uint64_t rate_bps;          /* must be > 0 */
    uint64_t qsize_bytes;       /* must be > 0 */
    enum netsim_accuracy_drop drop;
    uint32_t drop_value;        /* nth: n >= 1; random: p in 0..10000 */
    uint32_t drop_burst;        /* 1..100 (0 is taken as 1) */
    enum netsim_accuracy_traffic traffic;
    uint32_t pkt_len;           /* L2 bytes; 0 -> NETSIM_ACC_PKT_LEN */
    uint32_t warmup_pkts;       /* 0 -> automatic (see accuracy.c) */
    uint32_t measure_pkts;      /* sent after warm-up; 0 -> automatic */
    uint64_t seed;              /* lab seed; 0 -> 1 */
};

struct netsim_accuracy_result {
    /* The run. */
    uint64_t sent_pkts, warmup_pkts;
    double offered_bps;         /* arrival rate of the source, L2 bits/s */
    uint64_t end_ns;            /* simulated time when the pipe was empty */
    uint64_t events;            /* kernel events run */
    /* Delay (definitions in the header comment). */
    uint64_t delay_samples;
    double ser_ns, delay_mean_ns, delay_net_ns;
    double delay_min_net_ns, delay_max_net_ns;   /* extremes of (deliver - send) - S */
    double delay_expected_ns, delay_err;
    bool delay_checked;         /* LIGHT: the 1 % bound applies */
    /* Throughput. */
    uint64_t tput_window_ns, tput_bytes;
    double tput_bps, tput_expected_bps, tput_err;
    bool tput_checked;          /* SATURATE: the 1 % bound applies */
    /* Drops, over all arrivals. */
    uint64_t arrived, delivered, drop_nth, drop_random, drop_qfull;
    double frac_nth, frac_random, frac_qfull;
    uint64_t nth_expected;      /* valid when drop == NTH */
    double random_expected, random_sigma, random_z, random_z_binomial;
    uint64_t max_qlen_bytes;    /* high-water mark of the pipe's FIFO */
    /* Times the serializer went idle after the first measured packet was
     * sent, the final drain excluded: 0 means a SATURATE case kept the
     * link busy throughout, which is what makes "expected = R" hold. A
     * shallow queue behind heavy random drops can idle (the drops make the
     * surviving arrivals bursty) and then falls short of R: a property of
     * the model, not an error of the pipe. LIGHT: about one per packet. */
    uint64_t idle_after_warmup;
};

/* Run one case. 0 on success; -1 if the case is unusable (zero rate or
 * qsize, a drop setting netsim_pipe_config_check refuses) or memory ran
 * out; *out is then zeroed. */
int netsim_accuracy_run(const struct netsim_accuracy_case *in,
                        struct netsim_accuracy_result *out);

/* Expected injected-drop fraction of a case in the long run: 0, b/n for
 * nth (b <= n; 1 when b >= n), or b p / (1 + (b - 1) p) for random. */
double netsim_accuracy_injected_fraction(const struct netsim_accuracy_case *in);

/* Exact nth drops after `arrivals` arrivals with drop nth n burst b
 * (closed form, independent of the pipe's code). */
uint64_t netsim_accuracy_nth_drops(uint64_t arrivals, uint32_t n, uint32_t b);

/* Whether the result meets the issue's bounds: |delay err| and |rate err|
 * <= 1 % where checked, exact nth count, |z| <= 3 for random drops. When
 * it does not and why != NULL, a short reason is written there. */
bool netsim_accuracy_pass(const struct netsim_accuracy_case *in,
                          const struct netsim_accuracy_result *r, char *why, size_t why_len);

/* The standard grid shared by the unit test, the bench and
 * docs/netsim-accuracy.md. */
const struct netsim_accuracy_case *netsim_accuracy_grid(size_t *n);

/* The drop setting as the CLI spells it: "none", "nth 200",
 * "random 100 burst 2". */
void netsim_accuracy_describe_drop(const struct netsim_accuracy_case *in, char *buf, size_t len);

#endif
