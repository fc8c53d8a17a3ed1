/* The storage array's model (backend/array, docs/array.md) alone and
 * behind the fabric: each I/O's latency against the model's analytic
 * figures (write-back: controller, cache and mirror; write-through: the
 * RAID penalty's disk operations; uncached reads: seek and rotation;
 * queueing by Little's law), and the SAN Extension Tuner's I/O across
 * an FCIP tunnel to the array's FC port by pWWN, whose response times are
 * the array's latency plus the path's. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "fcip_rig.h"
#include "array/array_model.h"
#include "array/array_iscsi.h"
#include "host/hostnet.h"
#include "host/hostnet_int.h"
#include "sanext/tuner.h"

#define US ENGINE_NS_PER_US
#define MS ENGINE_NS_PER_MS
#define SEC ENGINE_NS_PER_SEC
#define DISK_NS(bytes) (ARRAY_SEEK_NS + ARRAY_ROTATION_NS + (uint64_t)(bytes) * 1000u / ARRAY_DISK_MBPS)
#define CACHE_NS(bytes) (ARRAY_CTRL_NS + (uint64_t)(bytes) * 1000u / ARRAY_CACHE_MBPS)
#define MIRROR_NS(bytes) (ARRAY_MIRROR_NS + (uint64_t)(bytes) * 1000u / ARRAY_MIRROR_MBPS)

static engine_t *e;
static struct array *arr;

struct io_log {
    int n;
    uint64_t last, sum;
};

static void logged(void *ctx, uint64_t ns)
{
    struct io_log *l = ctx;
    l->n++;
    l->last = ns;
    l->sum += ns;
}

static struct array_conf conf_of(int raid, int disks, bool wc, bool mirror)
{
    struct array_conf c = {.controllers = 2, .online = {true, true}, .nld = 1};
    c.ld[0] = (struct array_ld_conf){"Data", raid, disks, 500, wc, mirror, true, 0};
    return c;
}

static void setup_with(int raid, int disks, bool wc, bool mirror)
{
    e = engine_new(1);
    arr = array_new(e);
    struct array_conf c = conf_of(raid, disks, wc, mirror);
    array_configure(arr, &c);
}

static void teardown(void)
{
    array_free(arr);
    engine_free(e);
}

/* One I/O on an idle array: its latency. */
static uint64_t one(bool write, uint64_t off, uint32_t bytes)
{
    struct io_log l = {0};
    ck_assert(array_io(arr, 0, write, off, bytes, logged, &l));
    engine_run_until(e, engine_now(e) + 10 * SEC);
    ck_assert_int_eq(l.n, 1);
    return l.last;
}

START_TEST(write_back_mirrored_is_cache_and_mirror)
{
    setup_with(ARRAY_RAID5, 5, true, true);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_BACK_MIRRORED);
    uint64_t t = one(true, 1 << 20, 4096);
    printf("write-back mirrored 4 KB: %.1f us (cache %.1f + mirror %.1f)\n", t / 1e3, CACHE_NS(4096) / 1e3,
           MIRROR_NS(4096) / 1e3);
    ck_assert_uint_eq(t, CACHE_NS(4096) + MIRROR_NS(4096));
    teardown();
    setup_with(ARRAY_RAID5, 5, true, false); /* not mirrored: the cache alone */
    ck_assert_uint_eq(one(true, 1 << 20, 4096), CACHE_NS(4096));
}
END_TEST

/* Write-through RAID 5: read old data and parity, write both: 4 disk
 * operations, two of them in turn on each of two disks. */
START_TEST(write_through_raid5_pays_four_ops)
{
    setup_with(ARRAY_RAID5, 5, false, true);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_THROUGH);
    uint64_t t = one(true, 7ull << 30, 4096);
    struct array_stats st;
    array_ld_stats(arr, 0, &st);
    printf("write-through RAID 5 4 KB random: %.3f ms, %llu disk ops\n", t / 1e6, (unsigned long long)st.disk_ops);
    ck_assert_uint_eq(st.disk_ops, 4);
    ck_assert_uint_eq(t, CACHE_NS(4096) + 2 * DISK_NS(4096));
}
END_TEST

START_TEST(write_through_raid10_pays_two_ops)
{
    setup_with(ARRAY_RAID10, 4, false, true);
    uint64_t t = one(true, 7ull << 30, 4096);
    struct array_stats st;
    array_ld_stats(arr, 0, &st);
    printf("write-through RAID 10 4 KB random: %.3f ms, %llu disk ops\n", t / 1e6, (unsigned long long)st.disk_ops);
    ck_assert_uint_eq(st.disk_ops, 2);
    ck_assert_uint_eq(t, CACHE_NS(4096) + DISK_NS(4096));
}
END_TEST

/* A read misses: seek + half a turn + transfer (12.7 ms for 4 KB, some 78
 * per second per disk); the same block again comes from cache. */
START_TEST(read_miss_then_hit)
{
    setup_with(ARRAY_RAID5, 5, true, true);
    uint64_t miss = one(false, 3ull << 30, 4096), hit = one(false, 3ull << 30, 4096);
    printf("read 4 KB: miss %.3f ms (%.1f IOPS a disk), hit %.1f us\n", miss / 1e6, 1e9 / DISK_NS(4096),
           hit / 1e3);
    ck_assert_uint_eq(miss, ARRAY_CTRL_NS + DISK_NS(4096) + 4096u * 1000u / ARRAY_CACHE_MBPS);
    ck_assert_uint_eq(hit, CACHE_NS(4096));
    ck_assert(1e9 / DISK_NS(4096) > 75 && 1e9 / DISK_NS(4096) < 80);
    struct array_stats st;
    array_ld_stats(arr, 0, &st);
    ck_assert_uint_eq(st.reads, 2);
    ck_assert_uint_eq(st.read_hits, 1);
}
END_TEST

/* One controller offline: mirroring has no partner, writes go
 * write-through (the MD3000i suspends write-back); the partner serves the
 * drive. Back online, write-back again. */
START_TEST(partner_offline_suspends_write_back)
{
    setup_with(ARRAY_RAID10, 4, true, true);
    struct array_conf c = conf_of(ARRAY_RAID10, 4, true, true);
    c.online[1] = false;
    array_configure(arr, &c);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_THROUGH);
    ck_assert_uint_eq(one(true, 5ull << 30, 4096), CACHE_NS(4096) + DISK_NS(4096));
    c.online[1] = true, c.online[0] = false;
    array_configure(arr, &c);
    ck_assert_int_eq(array_ld_controller(arr, 0), 1);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_THROUGH);
    c.online[0] = true;
    array_configure(arr, &c);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_BACK_MIRRORED);
    c.controllers = 1; /* a single-controller array never mirrors */
    array_configure(arr, &c);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_THROUGH);
    c.ld[0].mirror_cache = false;
    array_configure(arr, &c);
    ck_assert_int_eq(array_write_mode(arr, 0), ARRAY_WRITE_BACK);
}
END_TEST

/* N random reads kept outstanding on a 2-disk RAID 10: throughput is
 * the two disks' (2 / 12.77 ms), and the mean latency N / throughput
 * (Little's law), about N/2 service times. */
struct loop {
    int left, n;
    uint64_t x, sum;
};

static void loop_issue(struct loop *l);

static void loop_done(void *ctx, uint64_t ns)
{
    struct loop *l = ctx;
    l->n++;
    l->sum += ns;
    loop_issue(l);
}

static void loop_issue(struct loop *l)
{
    if (engine_now(e) >= 60 * SEC)
        return;
    l->x = l->x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t off = (l->x >> 20) % ((500ull << 30) / 4096) * 4096;
    ck_assert(array_io(arr, 0, false, off, 4096, loop_done, l));
}

START_TEST(queueing_follows_littles_law)
{
    const int depths[] = {1, 4, 8, 16};
    for (int k = 0; k < 4; k++) {
        setup_with(ARRAY_RAID10, 2, true, true);
        struct loop l = {.x = 7};
        for (int i = 0; i < depths[k]; i++)
            loop_issue(&l);
        engine_run_until(e, 70 * SEC);
        double x = l.n / 60.0, r = l.sum / 1e9 / l.n, svc = (ARRAY_CTRL_NS + DISK_NS(4096)) / 1e9;
        double cap = 2 / (DISK_NS(4096) / 1e9), want_x = depths[k] == 1 ? 1 / svc : cap;
        printf("RAID 10 x2, %2d outstanding random 4 KB reads: %.1f IOPS (bound %.1f), %.2f ms, N/X %.2f ms\n",
               depths[k], x, want_x, r * 1e3, depths[k] / x * 1e3);
        ck_assert_msg(x > want_x * 0.95 && x < want_x * 1.01, "%.1f IOPS", x);
        ck_assert_msg(r * x > depths[k] * 0.98 && r * x < depths[k] * 1.02, "L = %.2f", r * x);
        teardown();
    }
    setup_with(ARRAY_RAID10, 2, true, true); /* for the fixture's teardown */
}
END_TEST

/* ---- the tuner across a tunnel ----------------------------------------- */

static struct rig r;
static struct tuner *tu;
static const uint8_t W1[8] = {0x10, 0, 0, 0, 0, 0, 0, 1}, W2[8] = {0x20, 0, 0, 0xa0, 0xb8, 0, 0, 2},
                     W3[8] = {0x10, 0, 0, 0, 0, 0, 0, 3};

/* The tuner's initiator W1 on switch 0, the array's port W2 and a tuner
 * target W3 (400 us, the path's reference) on switch 1, 2 ms each way. */
static void tunnel_setup(bool wc)
{
    rig_init(&r, 2, 0, 1500);
    rig_apply(&r);
    engine_run_until(r.e, 3 * SEC);
    tu = tuner_new(r.e, r.fab);
    e = r.e;
    arr = array_new(r.e);
    struct array_conf c = conf_of(ARRAY_RAID5, 5, wc, true);
    array_configure(arr, &c);
    array_fc_attach(arr, r.fab, 1, 1, W2, W2, "fc1/1");
}

static void tunnel_teardown(void)
{
    tuner_free(tu);
    array_free(arr);
    rig_free(&r);
}

/* Mean response time of `secs` of 64 KB op, one outstanding, to target. */
static double mean_rt(const uint8_t target[8], enum tuner_op op, int id, double secs)
{
    struct tuner_nport_conf a = {.sw = 0, .vsan = 1, .slot = 2, .port = 2}, b = {.sw = 1, .vsan = 1, .slot = 2, .port = 2};
    memcpy(a.pwwn, W1, 8);
    memcpy(b.pwwn, W3, 8);
    struct tuner_cmd_conf c = {.id = id, .op = op, .size = 65536, .outstanding = 1, .start = (uint64_t)id};
    memcpy(c.target, target, 8);
    tuner_begin(tu);
    tuner_nport(tu, &a);
    tuner_nport(tu, &b);
    tuner_cmd(tu, 0, W1, 1, &c);
    tuner_end(tu);
    tuner_clear(tu, 0, W1, 1);
    engine_run_until(r.e, engine_now(r.e) + (uint64_t)(secs * 1e9));
    struct tuner_counters k;
    tuner_counters(tu, 0, W1, 1, &k);
    ck_assert_uint_eq(k.errors, 0);
    int w = op == TUNER_WRITE;
    ck_assert_uint_gt(k.rt_count[w], 10);
    return (double)k.rt_sum_ns[w] / (double)k.rt_count[w];
}

START_TEST(tuner_sees_array_latency_plus_path)
{
    tunnel_setup(true);
    ck_assert_uint_ne(array_fc_fcid(arr), 0);
    uint32_t fcid;
    ck_assert(fabric_lookup(r.fab, 0, 1, W2, &fcid));
    double path_w = mean_rt(W3, TUNER_WRITE, 1, 10) - TUNER_SERVICE_NS;
    double path_r = mean_rt(W3, TUNER_READ, 2, 10) - TUNER_SERVICE_NS;
    double wb = mean_rt(W2, TUNER_WRITE, 3, 10) - path_w;
    double rd = mean_rt(W2, TUNER_READ, 4, 4) - path_r; /* within what the writes left in cache */
    double want_wb = ARRAY_CTRL_NS + CACHE_NS(65536) + MIRROR_NS(65536), want_rd = CACHE_NS(65536);
    printf("tuner 64 KB across 4 ms RTT: path write %.3f ms read %.3f ms; array write-back %.1f us (model %.1f),"
           " read hits %.1f us (model %.1f)\n",
           path_w / 1e6, path_r / 1e6, wb / 1e3, want_wb / 1e3, rd / 1e3, want_rd / 1e3);
    ck_assert_msg(wb > want_wb - 10 * US && wb < want_wb + 10 * US, "%.1f us", wb / 1e3);
    ck_assert_msg(rd > want_rd - 10 * US && rd < want_rd + 10 * US, "%.1f us", rd / 1e3);
    struct array_stats st;
    array_ld_stats(arr, 0, &st);
    ck_assert_uint_eq(st.read_hits, st.reads);
    tunnel_teardown();
    /* write cache off: the tuner's sequential 64 KB writes wait for the
     * data disk's transfer (full stripes: no read-modify-write) */
    tunnel_setup(false);
    path_w = mean_rt(W3, TUNER_WRITE, 1, 10) - TUNER_SERVICE_NS;
    double wt = mean_rt(W2, TUNER_WRITE, 2, 10) - path_w;
    double want_wt = ARRAY_CTRL_NS + CACHE_NS(65536) + 65536u * 1000u / ARRAY_DISK_MBPS;
    array_ld_stats(arr, 0, &st);
    printf("tuner 64 KB write-through RAID 5: array %.1f us (model %.1f), %llu writes, %llu disk ops\n", wt / 1e3,
           want_wt / 1e3, (unsigned long long)st.ios, (unsigned long long)st.disk_ops);
    ck_assert_msg(wt > want_wt - 10 * US && wt < want_wt + 10 * US, "%.1f us", wt / 1e3);
    ck_assert_uint_le(st.disk_ops - 2 * st.ios, 2); /* 2 a write; one may be under way */
    tunnel_teardown();
}
END_TEST


/* ---- iSCSI from a host ------------------------------------------------------ */

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static struct ipnet *inet;
static struct hostnet *ihn;
static struct iscsi_target *itgt;

/* Host 0 (the initiator) 10.0.0.1 -- the array's port 10.0.0.20 (host 1),
 * one clean 1 GbE cable. */
static void iscsi_setup(void)
{
    e = engine_new(1);
    inet = ipnet_new_hosts(e, 0, 2);
    ihn = hostnet_new(inet, 2);
    hostnet_port(ihn, 0, 0, IP4(10, 0, 0, 1), IP4(255, 255, 255, 0), 1500);
    hostnet_port(ihn, 1, 0, IP4(10, 0, 0, 20), IP4(255, 255, 255, 0), 1500);
    ipnet_cable(inet, 0, 1, 1, 1, 1, 1);
    arr = array_new(e);
    struct array_conf c = conf_of(ARRAY_RAID10, 4, true, true);
    array_configure(arr, &c);
    itgt = iscsi_target_new(arr, ihn, 1);
}

static void iscsi_teardown(void)
{
    iscsi_target_free(itgt);
    array_free(arr);
    hostnet_free(ihn);
    ipnet_free(inet);
    engine_free(e);
    arr = NULL;
    e = NULL;
}

static struct iscsi_perf_result perf(uint32_t dst, bool write, bool random, uint32_t bytes, int depth, int secs)
{
    struct iscsi_perf_conf c = {.h = 0, .dst = dst, .write = write, .random = random, .bytes = bytes,
                                .depth = depth, .len_ns = (uint64_t)secs * SEC, .span_bytes = 500ull << 30};
    struct iscsi_perf *p = iscsi_perf_start(ihn, &c);
    struct iscsi_perf_result r;
    while (!iscsi_perf_done(p, &r) && engine_now(e) < iscsi_perf_deadline(p))
        engine_run_until(e, engine_now(e) + 100 * MS);
    ck_assert(iscsi_perf_done(p, &r));
    iscsi_perf_free(p);
    return r;
}

START_TEST(iscsi_io_through_the_model)
{
    iscsi_setup();
    /* random 4 KB reads: each an uncached disk read, plus the cable */
    struct iscsi_perf_result r = perf(IP4(10, 0, 0, 20), false, true, 4096, 1, 5);
    ck_assert_int_eq(r.error, ISCSI_PERF_OK);
    double lat = (double)r.lat_sum_ns / (double)r.ios, model = ARRAY_CTRL_NS + DISK_NS(4096) + 4096.0 * 1000 / ARRAY_CACHE_MBPS;
    printf("iSCSI random 4 KB reads over 1 GbE: %llu in 5 s, %.3f ms (model %.3f), login %.1f us\n",
           (unsigned long long)r.ios, lat / 1e6, model / 1e6, r.login_ns / 1e3);
    ck_assert_msg(lat > model && lat < model + 100 * US, "%.3f ms", lat / 1e6);
    ck_assert_uint_gt(r.login_ns, 0);
    /* 4 in flight on 2 mirrored pairs: the disks' rate, Little's law */
    r = perf(IP4(10, 0, 0, 20), false, true, 4096, 4, 20);
    double x = (double)r.ios / 20, cap = 4 / (DISK_NS(4096) / 1e9);
    lat = (double)r.lat_sum_ns / (double)r.ios / 1e9;
    printf("iSCSI random 4 KB reads, 4 outstanding: %.1f IOPS (4 disks: %.1f), %.2f ms, N/X %.2f ms\n", x, cap,
           lat * 1e3, 4 / x * 1e3);
    ck_assert_msg(x > cap * 0.6 && x < cap * 1.01, "%.1f IOPS", x);
    ck_assert_msg(lat * x > 3.9 && lat * x < 4.1, "L = %.2f", lat * x);
    /* sequential 64 KB write-back writes: the model's cache and mirror,
     * the R2T round trip and 64 KB on the wire */
    r = perf(IP4(10, 0, 0, 20), true, false, 65536, 1, 5);
    lat = (double)r.lat_sum_ns / (double)r.ios;
    double wb = CACHE_NS(65536) + MIRROR_NS(65536), wire = 65536.0 * 8 / 1e9 * 1e9 * 1518 / 1448;
    printf("iSCSI 64 KB write-back writes: %.1f us (model %.1f + wire %.1f)\n", lat / 1e3, wb / 1e3, wire / 1e3);
    ck_assert_msg(lat > wb + wire && lat < wb + wire + 200 * US, "%.1f us", lat / 1e3);
    ck_assert_uint_eq(iscsi_target_sessions(itgt), 0); /* each run logged out (closed) */
    ck_assert_uint_gt(iscsi_target_commands(itgt), 100);
    /* nobody listens on the initiator's own address: refused */
    r = perf(IP4(10, 0, 0, 1), false, false, 4096, 1, 1);
    ck_assert_int_eq(r.error, ISCSI_PERF_REFUSED);
    r = perf(IP4(10, 9, 9, 9), false, false, 4096, 1, 1);
    ck_assert_int_eq(r.error, ISCSI_PERF_NO_ROUTE);
    iscsi_teardown();
}
END_TEST

/* A hostile initiator: PDUs the target must not take end the connection
 * (a command before login, a data segment over MaxRecvDataSegmentLength,
 * a transfer over 16 MB); the target keeps serving others. */
struct raw {
    struct iscsi_pdu first, second;
    bool two, closed;
    int got;
};

static void raw_send(struct hconn *hc, const struct iscsi_pdu *p)
{
    struct iscsi_pdu *m = malloc(sizeof *m);
    *m = *p;
    tcp_send(hc->c, iscsi_pdu_bytes(p), m);
}

static void raw_deliver(struct hconn *hc, void *rec, uint32_t len)
{
    (void)len;
    struct raw *r = hc->app;
    free(rec);
    if (r && r->got++ == 0 && r->two)
        raw_send(hc, &r->second);
}

static void raw_state(struct hconn *hc, enum tcp_state st, enum tcp_reason why)
{
    (void)why;
    struct raw *r = hc->app;
    if (st == TCP_ESTABLISHED)
        raw_send(hc, &r->first);
    else if (st == TCP_CLOSED)
        r->closed = true;
}

static const struct hconn_ops raw_ops = {raw_deliver, NULL, raw_state};

static bool raw_closed(struct raw *r)
{
    struct hconn *hc = hostnet_connect(ihn, 0, IP4(10, 0, 0, 20), ISCSI_PORT, 87380, 87380, &raw_ops, r);
    ck_assert_ptr_nonnull(hc);
    engine_run_until(e, engine_now(e) + 2 * SEC);
    bool closed = r->closed;
    hostnet_conn_free(hc);
    return closed;
}

START_TEST(iscsi_hostile_pdus_close)
{
    iscsi_setup();
    struct iscsi_pdu login = {.op = ISCSI_LOGIN, .final = true, .data_len = ISCSI_LOGIN_TEXT};
    struct iscsi_pdu cmd = {.op = ISCSI_SCSI_CMD, .final = true, .itt = 1, .xfer_len = 4096};
    struct raw before = {.first = cmd};
    ck_assert(raw_closed(&before)); /* a command before login */
    struct iscsi_pdu big = {.op = ISCSI_DATA_OUT, .itt = 1, .data_len = 65536};
    struct raw seg = {.first = login, .second = big, .two = true};
    ck_assert(raw_closed(&seg));
    struct iscsi_pdu huge = cmd;
    huge.xfer_len = ISCSI_XFER_MAX + 1;
    struct raw xfer = {.first = login, .second = huge, .two = true};
    ck_assert(raw_closed(&xfer));
    struct raw fine = {.first = login, .second = cmd, .two = true};
    ck_assert(!raw_closed(&fine)); /* a good login and read: the connection stays */
    ck_assert_int_ge(fine.got, 2);
    struct iscsi_perf_result r = perf(IP4(10, 0, 0, 20), false, false, 4096, 1, 1);
    ck_assert_int_eq(r.error, ISCSI_PERF_OK);
    iscsi_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("array");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, write_back_mirrored_is_cache_and_mirror);
    tcase_add_test(tc, write_through_raid5_pays_four_ops);
    tcase_add_test(tc, write_through_raid10_pays_two_ops);
    tcase_add_test(tc, read_miss_then_hit);
    tcase_add_test(tc, partner_offline_suspends_write_back);
    tcase_add_test(tc, queueing_follows_littles_law);
    suite_add_tcase(s, tc);
    TCase *tt = tcase_create("tunnel");
    tcase_set_timeout(tt, 120);
    tcase_add_test(tt, tuner_sees_array_latency_plus_path);
    suite_add_tcase(s, tt);
    TCase *ti = tcase_create("iscsi");
    tcase_set_timeout(ti, 120);
    tcase_add_test(ti, iscsi_io_through_the_model);
    tcase_add_test(ti, iscsi_hostile_pdus_close);
    suite_add_tcase(s, ti);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
