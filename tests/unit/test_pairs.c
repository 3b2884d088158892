/*
 * test_pairs.c: unit tests of lib/pairs/pairs.c, the ProfileMe estimators:
 * interval helpers, exact single-sample and pair estimates on records built
 * here (each expected value worked out by hand in the comments), merging
 * through METRIC records, and the input checks.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pairs/pairs.h"
#include "stream/pmr_internal.h"
#include "sim/sim.h"
#include "unit.h"

#define NOLAT PMR_SIM_NOLAT

static unsigned char rbuf[4096];

/* Adds the sim record *in of type to p; returns pmr_pairs_add's result. */
static int
add_rec(struct pmr_pairs *p, uint32_t type, const void *in)
{
	const struct pmr_rtype *t = pmr_sim_rtype(type);
	struct pmr_rec rec;

	memset(&rec, 0, sizeof(rec));
	rec.type = type;
	rec.len = (uint32_t)pmr_fields_size(t, in);
	pmr_fields_encode(t, in, rbuf);
	rec.p = rbuf;
	return pmr_pairs_add(p, &rec);
}

static int
add_meta(struct pmr_pairs *p, const char *key, const char *value)
{
	struct pmr_rec rec;
	uint32_t kl = (uint32_t)strlen(key), vl = (uint32_t)strlen(value);

	pmr_put32(rbuf, kl);
	memcpy(rbuf + 4, key, kl);
	pmr_put32(rbuf + 4 + kl, vl);
	memcpy(rbuf + 8 + kl, value, vl);
	memset(&rec, 0, sizeof(rec));
	rec.type = PMR_REC_META;
	rec.len = 8 + kl + vl;
	rec.p = rbuf;
	return pmr_pairs_add(p, &rec);
}

static void
add_stats(struct pmr_pairs *p, uint64_t fetched)
{
	struct pmr_sim_stats st;

	memset(&st, 0, sizeof(st));
	st.final = 1;
	st.fetched = fetched;
	CHECK_EQ(add_rec(p, PMR_REC_STATS, &st), 1);
}

static struct pmr_sim_sample
smp(uint64_t pc, int ret, uint32_t ev, uint32_t fm, uint32_t md, uint32_t dx,
    uint32_t xr, uint32_t rr, uint32_t ld, uint32_t total)
{
	struct pmr_sim_sample x;

	memset(&x, 0, sizeof(x));
	x.pc = pc;
	x.events = ev | (ret ? PMR_SIM_EV_RETIRED : 0);
	x.trap = ret ? 0 : 1;
	x.lat_fm = fm;
	x.lat_md = md;
	x.lat_dx = dx;
	x.lat_xr = xr;
	x.lat_rr = rr;
	x.lat_ld = ld;
	x.lat_total = total;
	return x;
}

/* Returns the estimate of metric name on the row of key (or "all"). */
static struct pmr_pairs_val
val(struct pmr_pairs *p, enum pmr_pairs_by by, uint64_t key, const char *name)
{
	struct pmr_pairs_row *rows;
	struct pmr_pairs_val v;
	const char *note;
	size_t n, i;

	memset(&v, 0, sizeof(v));
	v.est = NAN;
	CHECK_EQ(pmr_pairs_rows(p, by, &rows, &n, &note), 0);
	for (i = 0; i < n; i++)
		if (by == PMR_PAIRS_BY_ALL || rows[i].key == key) {
			CHECK(pmr_pairs_metric_find(name) >= 0);
			pmr_pairs_eval(p, &rows[i], pmr_pairs_metric_find(name),
			    &v);
			return v;
		}
	printf("# no row 0x%llx\n", (unsigned long long)key);
	unit_failed = 1;
	return v;
}

static struct pmr_pairs *
new_pairs(void)
{
	struct pmr_pairs_opts o;
	struct pmr_pairs *p;

	memset(&o, 0, sizeof(o));
	o.confidence = 0.95;
	p = pmr_pairs_new(&o);
	CHECK(p != NULL);
	return p;
}

UNIT_TEST(quantiles)
{
	CHECK_NEAR(pmr_pairs_zquantile(0.95), 1.959964, 1e-6);
	CHECK_NEAR(pmr_pairs_zquantile(0.99), 2.575829, 1e-6);
	CHECK_NEAR(pmr_pairs_tquantile(0.95, 1), 12.7062, 1e-3);
	CHECK_NEAR(pmr_pairs_tquantile(0.95, 2), 4.3027, 1e-3);
	CHECK_NEAR(pmr_pairs_tquantile(0.95, 10), 2.2281, 5e-3);
	CHECK_NEAR(pmr_pairs_tquantile(0.95, 1000), 1.9623, 1e-3);
}

UNIT_TEST(intervals)
{
	double lo, hi, z = pmr_pairs_zquantile(0.95);

	/* Wilson, 4 of 6: centre (p + z^2/2n) / (1 + z^2/n) */
	pmr_pairs_wilson(4, 6, z, &lo, &hi);
	CHECK_NEAR(lo, 0.299993, 1e-5);
	CHECK_NEAR(hi, 0.903229, 1e-5);
	pmr_pairs_wilson(0, 0, z, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi));
	/* Poisson score interval: k + z^2/2 +- z sqrt(k + z^2/4) */
	pmr_pairs_poisson(0, z, &lo, &hi);
	CHECK_NEAR(lo, 0, 1e-12);
	CHECK_NEAR(hi, z * z, 1e-9);
	pmr_pairs_poisson(6, z, &lo, &hi);
	CHECK_NEAR(lo, 2.749854, 1e-5);
	CHECK_NEAR(hi, 13.091605, 1e-5);
}

UNIT_TEST(buckets)
{
	CHECK_EQ(pmr_pairs_bucket(0), 0);
	CHECK_EQ(pmr_pairs_bucket(15), 15);
	CHECK_EQ(pmr_pairs_bucket(16), 16);
	CHECK_EQ(pmr_pairs_bucket(31), 16);
	CHECK_EQ(pmr_pairs_bucket(32), 17);
	CHECK_EQ(pmr_pairs_bucket(UINT32_MAX - 1), PMR_PAIRS_NB - 1);
	CHECK_EQ_U64(pmr_pairs_bucket_lo(16), 16);
	CHECK_EQ_U64(pmr_pairs_bucket_lo(17), 32);
	CHECK_EQ_U64(pmr_pairs_bucket_lo(7), 7);
}

/* The samples of tests/data/pairs/single.tsv at pc 0x1000 and 0x2000. */
static void
feed_single(struct pmr_pairs *p, int part)
{
	struct pmr_sim_sample x[10];
	int i;

	x[0] = smp(0x1000, 1, PMR_SIM_EV_DCACHE_MISS, 2, 3, 1, 4, 5, 10, 15);
	x[1] = smp(0x1000, 1, 0, 2, 1, 0, 1, 2, 3, 6);
	x[2] = smp(0x1000, 1, PMR_SIM_EV_DCACHE_MISS, 2, 5, 0, 20, 1, 30, 28);
	x[3] = smp(0x1000, 0, PMR_SIM_EV_BAD_PATH, 2, NOLAT, NOLAT, NOLAT,
	    NOLAT, NOLAT, 4);
	x[4] = smp(0x1000, 1, 0, 2, 1, 0, 1, 0, 3, 4);
	x[5] = smp(0x1000, 0, 0, 3, NOLAT, NOLAT, NOLAT, NOLAT, NOLAT, 7);
	x[5].trap = 2;
	x[6] = smp(0x2000, 1, PMR_SIM_EV_TAKEN, 1, 0, 0, 1, 0, NOLAT, 2);
	x[7] = smp(0x2000, 1, PMR_SIM_EV_BR_MISP, 1, 0, 0, 1, 3, NOLAT, 5);
	x[8] = smp(0x2000, 1, PMR_SIM_EV_TAKEN | PMR_SIM_EV_BR_MISP, 1, 0, 0,
	    1, 0, NOLAT, 2);
	x[9] = smp(0x2000, 1, 0, 1, 0, 0, 1, 0, NOLAT, 2);
	for (i = 0; i < 10; i++)
		if (part < 0 || i % 2 == part)
			CHECK_EQ(add_rec(p, PMR_REC_SAMPLE, &x[i]), 1);
}

UNIT_TEST(single)
{
	struct pmr_pairs *p = new_pairs();
	struct pmr_pairs_val v;

	CHECK_EQ(add_meta(p, "profileme", "mode=single S=100 W=0"), 0);
	feed_single(p, -1);
	add_stats(p, 1000);	/* S_eff = 1000 / 10 = 100 */
	CHECK_EQ(pmr_pairs_finish(p), 0);
	CHECK_NEAR(pmr_pairs_info(p)->S_eff, 100, 1e-12);
	v = val(p, PMR_PAIRS_BY_PC, 0x1000, "execs");
	CHECK_NEAR(v.est, 600, 1e-9);		/* 6 samples * 100 */
	CHECK_NEAR(v.lo, 274.985, 1e-2);	/* Poisson score, k = 6 */
	CHECK_EQ_U64(v.k, 6);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "retires").est, 400, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "aborts").est, 200, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "ab_br").est, 100, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "ab_jmp").est, 100, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "ret_rate").est, 4.0 / 6,
	    1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "dcache_miss").est, 200,
	    1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "dcache_rate").est, 0.5,
	    1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "bad_path").est, 100, 1e-9);
	/* retired only: md (3+1+5+1)/4, xr (4+1+20+1)/4, ld (10+3+30+3)/4 */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "lat_md").est, 2.5, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "lat_xr").est, 6.5, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "lat_ld").est, 11.5, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "cyc_xr").est, 2600, 1e-9);
	/* xr sorted 1 1 4 20: median 1; 90th: 20, in the bucket [16, 32) */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "lat_xr_p50").est, 1, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "lat_xr_p90").est, 16,
	    1e-12);
	/* in progress: 15-5, 6-2, 28-1, 4-0 retired, 4 and 7 aborted = 56 */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x1000, "inprog").est, 5600, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x2000, "taken").est, 200, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x2000, "fallthru").est, 200, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0x2000, "misp_rate").est, 0.5,
	    1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_ALL, 0, "execs").est, 1000, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_ALL, 0, "retires").est, 800, 1e-9);
	/* paired metrics are not available from single samples */
	v = val(p, PMR_PAIRS_BY_ALL, 0, "wasted");
	CHECK(isnan(v.est));
	pmr_pairs_free(p);
}

/* The two pairs of tests/data/pairs/paired.tsv. */
static void
feed_paired(struct pmr_pairs *p, int which)
{
	struct pmr_sim_pair q;

	memset(&q, 0, sizeof(q));
	q.fetch_lat = 1;
	q.dist = 1;
	q.a = smp(0xa0, 1, 0, 1, 1, 0, 2, 1, NOLAT, 5);	/* [0, 4) */
	q.b = smp(0xb0, 1, 0, 1, 0, 0, 1, 2, NOLAT, 4);	/* [1, 3) */
	q.a.hist_len = q.b.hist_len = 4;	/* history 0000 */
	if (which != 1)
		CHECK_EQ(add_rec(p, PMR_REC_PAIR, &q), 1);
	q.seq = 1;
	q.fetch_lat = 3;
	q.dist = 3;
	q.b = smp(0xc0, 0, 0, 1, NOLAT, NOLAT, NOLAT, NOLAT, NOLAT, 2);
	q.b.hist_len = 4;
	if (which != 0)
		CHECK_EQ(add_rec(p, PMR_REC_PAIR, &q), 1);
}

UNIT_TEST(paired)
{
	struct pmr_pairs *p = new_pairs();

	CHECK_EQ(add_meta(p, "profileme", "mode=paired S=50 W=4"), 0);
	CHECK_EQ(add_meta(p, "issue-width", "4"), 0);
	feed_paired(p, -1);
	add_stats(p, 200);	/* S_eff = 100 per pair, s = 50 per member */
	CHECK_EQ(pmr_pairs_finish(p), 0);
	/* 0xa0: k 2, L 8, U 1 (forward, from pair 0), G 3 + 1, Gu 3 */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "execs").est, 100, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "inprog").est, 400, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "useful").est, 400, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "useful_fwd").est, 400, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "useful_bwd").est, 0, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "avail").est, 1600, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "wasted").est, 1200, 1e-9);
	/* avail's upper side 3675.73 and useful's lower one W S (U - lo),
	 * lo the score bound of U - 1/2, less the covariance z^2 S^2 C W
	 * sum ul (pairs.1, Confidence intervals) */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "wasted").hi,
	    1200 + sqrt(3675.7318 * 3675.7318 + 379.1199 * 379.1199 -
	    1.959964 * 1.959964 * 1e4 * 64), 1e-2);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "wasted_frac").est, 0.75,
	    1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "useful_rate").est, 1, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "inflight").est, 4, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "useful_conc").est, 3, 1e-12);
	/* 0xb0: l 2, u 1 backward (a issues at 2 in [1, 3)), G 2 */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xb0, "useful_bwd").est, 400, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xb0, "wasted").est, 0, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xb0, "inflight").est, 8, 1e-12);
	/* 0xc0: aborted at 2 cycles (rule a), no useful overlap */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xc0, "inprog").est, 100, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xc0, "wasted").est, 400, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xc0, "useful_conc").est, 8, 1e-12);
	/* all: L 12, U 2: 1 - 2*4*2 / (4*12) */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_ALL, 0, "wasted").est, 1600, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_ALL, 0, "wasted_frac").est, 2.0 / 3,
	    1e-12);
	pmr_pairs_free(p);
}

UNIT_TEST(abort_rule_zero)
{
	struct pmr_pairs_opts o;
	struct pmr_pairs *p;

	memset(&o, 0, sizeof(o));
	o.aborts = PMR_PAIRS_ABORT_ZERO;
	p = pmr_pairs_new(&o);
	CHECK_EQ(add_meta(p, "profileme", "mode=paired S=50 W=4"), 0);
	feed_paired(p, -1);
	add_stats(p, 200);
	CHECK_EQ(pmr_pairs_finish(p), 0);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xc0, "inprog").est, 0, 1e-9);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_ALL, 0, "inprog").est, 500, 1e-9);
	pmr_pairs_free(p);
}

/* Writes p's METRIC records to a temporary file and reads them into q. */
static void
through_metric(struct pmr_pairs *p, struct pmr_pairs *q)
{
	char path[] = "/tmp/test_pairs.XXXXXX";
	struct pmr_wopts wo = { "test_pairs", 0, 0, 0 };
	struct pmr_writer *w;
	struct pmr_reader *r;
	struct pmr_rec rec;
	int fd, e, rc;

	CHECK((fd = mkstemp(path)) >= 0);
	close(fd);
	CHECK((w = pmr_writer_open(path, &wo, &e)) != NULL);
	CHECK_EQ(pmr_pairs_write(p, w), 0);
	CHECK_EQ(pmr_writer_close(w, NULL, 0), 0);
	CHECK((r = pmr_reader_open(path, 0, &e)) != NULL);
	while ((rc = pmr_reader_next(r, &rec)) == 1)
		CHECK_EQ(pmr_pairs_add(q, &rec), 1);
	CHECK_EQ(rc, 0);
	pmr_reader_close(r);
	unlink(path);
}

UNIT_TEST(merge)
{
	struct pmr_pairs *one = new_pairs(), *a = new_pairs(), *b = new_pairs();
	struct pmr_pairs *m = new_pairs();
	const char *names[] = { "execs", "inprog", "useful", "wasted",
		"wasted_frac", "inflight", "lat_xr" };
	struct pmr_pairs_val v1, v2;
	size_t i;

	CHECK_EQ(add_meta(one, "profileme", "mode=paired S=50 W=4"), 0);
	feed_paired(one, -1);
	add_stats(one, 200);
	CHECK_EQ(add_meta(a, "profileme", "mode=paired S=50 W=4"), 0);
	feed_paired(a, 0);
	add_stats(a, 120);
	CHECK_EQ(add_meta(b, "profileme", "mode=paired S=50 W=4"), 0);
	feed_paired(b, 1);
	add_stats(b, 80);
	CHECK_EQ(pmr_pairs_finish(a), 0);
	CHECK_EQ(pmr_pairs_finish(b), 0);
	through_metric(a, m);
	through_metric(b, m);
	CHECK_EQ(pmr_pairs_finish(one), 0);
	CHECK_EQ(pmr_pairs_finish(m), 0);
	CHECK_NEAR(pmr_pairs_info(m)->S_eff, 100, 1e-12);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		v1 = val(one, PMR_PAIRS_BY_PC, 0xa0, names[i]);
		v2 = val(m, PMR_PAIRS_BY_PC, 0xa0, names[i]);
		CHECK(v1.est == v2.est || (isnan(v1.est) && isnan(v2.est)));
		CHECK(v1.hi == v2.hi || (isnan(v1.hi) && isnan(v2.hi)));
	}
	pmr_pairs_free(one);
	pmr_pairs_free(a);
	pmr_pairs_free(b);
	pmr_pairs_free(m);
}

UNIT_TEST(errors)
{
	struct pmr_pairs *p = new_pairs();

	/* no samples */
	CHECK_EQ(add_meta(p, "profileme", "mode=single S=100 W=0"), 0);
	add_stats(p, 1000);
	CHECK(pmr_pairs_finish(p) < 0);
	CHECK(strstr(pmr_pairs_errmsg(p), "no SAMPLE") != NULL);
	/* a second configuration */
	CHECK(add_meta(p, "profileme", "mode=single S=200 W=0") < 0);
	CHECK(strstr(pmr_pairs_errmsg(p), "mismatched") != NULL);
	pmr_pairs_free(p);
	/* pairs without a window */
	p = new_pairs();
	CHECK_EQ(add_meta(p, "profileme", "mode=paired S=50 W=0"), 0);
	feed_paired(p, -1);
	add_stats(p, 200);
	CHECK(pmr_pairs_finish(p) < 0);
	CHECK(strstr(pmr_pairs_errmsg(p), "window") != NULL);
	pmr_pairs_free(p);
	/* single samples and pairs mixed */
	p = new_pairs();
	feed_paired(p, 0);
	{
		struct pmr_sim_sample x = smp(1, 1, 0, 1, 1, 1, 1, 1, 1, 5);

		CHECK(add_rec(p, PMR_REC_SAMPLE, &x) < 0);
	}
	pmr_pairs_free(p);
	/* a SAMPLE record too short for its fields */
	{
		struct pmr_rec rec;

		p = new_pairs();
		memset(&rec, 0, sizeof(rec));
		rec.type = PMR_REC_SAMPLE;
		rec.len = 10;
		rec.p = rbuf;
		CHECK(pmr_pairs_add(p, &rec) < 0);
		pmr_pairs_free(p);
	}
}

/* Returns the row of rows[0..n) with key, key2 and fallthru, or NULL. */
static const struct pmr_pairs_prow *
prow(const struct pmr_pairs_prow *rows, size_t n, uint64_t key, uint64_t key2,
    int fall)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].key == key && rows[i].key2 == key2 &&
		    rows[i].fallthru == fall)
			return &rows[i];
	printf("# no profile row 0x%llx 0x%llx\n", (unsigned long long)key,
	    (unsigned long long)key2);
	unit_failed = 1;
	return NULL;
}

/* The samples of tests/data/pairs/addr.tsv: misses, edges and paths. */
UNIT_TEST(profiles)
{
	struct pmr_pairs_geom g = { 8192, 65536, 2, 64 };
	struct pmr_sim_sample x[10];
	struct pmr_pairs_prow *rows;
	const struct pmr_pairs_prow *r;
	struct pmr_pairs *p = new_pairs();
	size_t n;
	int i;

	CHECK_EQ(add_meta(p, "profileme", "mode=single S=100 W=0"), 0);
	for (i = 0; i < 5; i++) {
		x[i] = smp(0x1000, 1, PMR_SIM_EV_DCACHE_MISS, 2, 3, 1, 4, 5,
		    10, 15);
		x[i].cls = PMR_OP_LOAD;
	}
	x[0].addr = 0x10000;
	x[1].addr = 0x10040;
	x[2].addr = 0x18000;
	x[2].pc = 0x1004;
	x[2].cls = PMR_OP_STORE;
	x[3] = smp(0x1000, 0, PMR_SIM_EV_DCACHE_MISS, 2, 3, 1, NOLAT, NOLAT,
	    NOLAT, 8);			/* aborted: not counted */
	x[3].cls = PMR_OP_LOAD;
	x[3].addr = 0x10000;
	x[4].events = PMR_SIM_EV_RETIRED;	/* a hit */
	x[4].pc = 0x1008;
	x[4].addr = 0x10000;
	for (i = 5; i < 10; i++) {
		x[i] = smp(0x2000, 1, PMR_SIM_EV_TAKEN, 1, 0, 0, 1, 0, NOLAT,
		    2);
		x[i].cls = PMR_OP_BR_COND;
		x[i].addr = 0x3000;
		x[i].hist_len = 4;
	}
	x[5].history = 0xb;
	x[6].history = 0x3;
	x[7].history = 0xa;
	x[7].events = PMR_SIM_EV_RETIRED;	/* not taken */
	x[7].addr = 0;
	x[8].pc = x[9].pc = 0x2010;
	x[8].cls = x[9].cls = PMR_OP_JMP_IND;
	x[8].addr = 0x4000;
	x[8].history = 0x1;
	x[8].hist_len = 2;
	x[9].addr = 0x5000;
	x[9].history = 0x1d;
	x[9].hist_len = 8;
	for (i = 0; i < 10; i++)
		CHECK_EQ(add_rec(p, PMR_REC_SAMPLE, &x[i]), 1);
	add_stats(p, 1000);	/* s = 100 */
	CHECK_EQ(pmr_pairs_finish(p), 0);

	/* pages of 8 KB: 0x10000 (samples 0, 1), 0x18000 (sample 2) */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PAGE, &g, 0, &rows, &n), 0);
	CHECK_EQ((int)n, 2);
	if ((r = prow(rows, n, 0x10000, 0, 0)) != NULL) {
		CHECK_EQ_U64(r->k, 2);
		CHECK_EQ_U64(r->n, 3);
		CHECK_NEAR(r->est, 200, 1e-9);
		CHECK_NEAR(r->lo, 54.847214, 1e-5);	/* Poisson, k = 2 */
		CHECK_NEAR(r->frac, 2.0 / 3, 1e-12);
		CHECK_NEAR(r->flo, 0.207660, 1e-5);	/* Wilson 2 of 3 */
	}
	if ((r = prow(rows, n, 0x18000, 0, 0)) != NULL)
		CHECK_NEAR(r->est, 100, 1e-9);
	/* 512 sets of 64-byte lines: 1024 % 512 = 0, 1025 -> 1, 1536 -> 0 */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_SET, &g, 0, &rows, &n), 0);
	CHECK_EQ((int)n, 2);
	if ((r = prow(rows, n, 0, 0, 0)) != NULL)
		CHECK_NEAR(r->est, 200, 1e-9);
	if ((r = prow(rows, n, 1, 0, 0)) != NULL)
		CHECK_NEAR(r->est, 100, 1e-9);
	g.ways = 1;		/* 1024 sets: 0, 1, 512 */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_SET, &g, 0, &rows, &n), 0);
	CHECK_EQ((int)n, 3);
	if ((r = prow(rows, n, 512, 0, 0)) != NULL)
		CHECK_NEAR(r->est, 100, 1e-9);
	/* edges: 0x2000 -> 0x3000 twice, fall-through once; 0x2010 -> 2 */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_EDGE, &g, 0, &rows, &n), 0);
	CHECK_EQ((int)n, 4);
	CHECK_EQ_U64(rows[0].key, 0x2000);	/* sorted by pc, then k */
	CHECK_EQ_U64(rows[0].key2, 0x3000);
	CHECK(rows[1].fallthru);
	if ((r = prow(rows, n, 0x2000, 0x3000, 0)) != NULL) {
		CHECK_NEAR(r->est, 200, 1e-9);
		CHECK_NEAR(r->frac, 2.0 / 3, 1e-12);
	}
	if ((r = prow(rows, n, 0x2000, 0, 1)) != NULL)
		CHECK_NEAR(r->est, 100, 1e-9);
	if ((r = prow(rows, n, 0x2010, 0x5000, 0)) != NULL) {
		CHECK_NEAR(r->frac, 0.5, 1e-12);
		CHECK_EQ_U64(r->n, 2);
	}
	/* paths of 2 bits: 0x2000 11 twice, 10 once; 0x2010 01 twice */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PATH, &g, 2, &rows, &n), 0);
	CHECK_EQ((int)n, 3);
	if ((r = prow(rows, n, 0x2000, 3, 0)) != NULL)
		CHECK_NEAR(r->est, 200, 1e-9);
	if ((r = prow(rows, n, 0x2010, 1, 0)) != NULL)
		CHECK_NEAR(r->frac, 1, 1e-12);
	/* 4 bits: 0x2010's 2-bit history is left out */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PATH, &g, 4, &rows, &n), 0);
	CHECK_EQ((int)n, 4);
	if ((r = prow(rows, n, 0x2010, 0xd, 0)) != NULL)
		CHECK_EQ_U64(r->n, 1);
	/* bad arguments */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PATH, &g, 0, &rows, &n),
	    PMR_EINVAL);
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PATH, &g, 65, &rows, &n),
	    PMR_EINVAL);
	g.line = 48;
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_SET, &g, 0, &rows, &n),
	    PMR_EINVAL);
	g.page = 3000;
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PAGE, &g, 0, &rows, &n),
	    PMR_EINVAL);
	pmr_pairs_free(p);
}

/* Paths with the pair constraint (spec 4.6) on the pairs of paired.tsv. */
UNIT_TEST(partner_paths)
{
	struct pmr_pairs_geom g = { 8192, 65536, 2, 64 };
	struct pmr_pairs_prow *rows;
	struct pmr_pairs *p = new_pairs();
	size_t n;

	CHECK_EQ(add_meta(p, "profileme", "mode=paired S=50 W=4"), 0);
	feed_paired(p, -1);
	add_stats(p, 200);	/* S_eff = 100, s = 50 */
	CHECK_EQ(pmr_pairs_finish(p), 0);
	/* pair 0 only (pair 1's second member aborts): 0xb0 after 0xa0 */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PPATH, &g, 1, &rows, &n), 0);
	CHECK_EQ((int)n, 1);
	if (n == 1) {
		CHECK_EQ_U64(rows[0].key, 0xb0);
		CHECK_EQ_U64(rows[0].key3, 0xa0);
		CHECK_EQ_U64(rows[0].k, 1);
		CHECK_NEAR(rows[0].est, 400, 1e-9);	/* W S k = 4 100 1 */
		CHECK_NEAR(rows[0].lo, 70.609822, 1e-5);
	}
	/* without the constraint: every member, s k with s = 50 */
	CHECK_EQ(pmr_pairs_prof(p, PMR_PAIRS_PROF_PATH, &g, 1, &rows, &n), 0);
	CHECK_EQ((int)n, 3);
	if (n == 3) {
		CHECK_EQ_U64(rows[0].key, 0xa0);
		CHECK_NEAR(rows[0].est, 100, 1e-9);
	}
	pmr_pairs_free(p);
}

/*
 * Local IPC of feed_paired (as tests/data/pairs/paired.tsv): pair 0's
 * members both retire at cycle 5, so each has G = 1: 0xa0 (2 retired
 * members) 2 W G / k = 4, 0xb0 8.  META truth sets the window.
 */
UNIT_TEST(local_ipc)
{
	struct pmr_pairs *p = new_pairs();

	CHECK_EQ(add_meta(p, "profileme", "mode=paired S=50 W=4"), 0);
	CHECK_EQ(add_meta(p, "truth", "delta=3"), 0);
	CHECK(add_meta(p, "truth", "delta=4") < 0);	/* shards differ */
	feed_paired(p, -1);
	add_stats(p, 200);
	CHECK_EQ(pmr_pairs_finish(p), 0);
	CHECK_EQ(pmr_pairs_info(p)->delta, 3);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "local").est, 4, 1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "local_ipc").est, 5.0 / 7,
	    1e-12);
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xb0, "local").est, 8, 1e-12);
	/* 2 W times Wilson's upper bound of G = 1 in k = 2 with a
	 * continuity correction, (2 k p + z^2 + 1 + z sqrt(z^2 + 2 - 1/k +
	 * 4 p (k (1 - p) - 1))) / (2 (k + z^2)), p = 1/2 */
	CHECK_NEAR(val(p, PMR_PAIRS_BY_PC, 0xa0, "local").hi,
	    8 * (2 + 3.841459 + 1 + 1.959964 * sqrt(3.841459 + 1.5)) /
	    (2 * (2 + 3.841459)), 1e-4);
	pmr_pairs_free(p);
}

/* The same seed gives the same bootstrap intervals; estimates unchanged. */
UNIT_TEST(bootstrap)
{
	struct pmr_pairs_opts o;
	struct pmr_pairs *p[3];
	struct pmr_pairs_val v[3];
	int i;

	for (i = 0; i < 3; i++) {
		memset(&o, 0, sizeof(o));
		o.confidence = 0.95;
		o.boot = i < 2 ? 50 : 0;
		o.seed = 7;
		p[i] = pmr_pairs_new(&o);
		CHECK(p[i] != NULL);
		CHECK_EQ(add_meta(p[i], "profileme", "mode=paired S=50 W=4"),
		    0);
		feed_paired(p[i], -1);
		add_stats(p[i], 200);
		CHECK_EQ(pmr_pairs_finish(p[i]), 0);
		v[i] = val(p[i], PMR_PAIRS_BY_ALL, 0, "wasted");
	}
	CHECK_NEAR(v[0].est, v[2].est, 1e-9);
	CHECK_NEAR(v[0].lo, v[1].lo, 0);
	CHECK_NEAR(v[0].hi, v[1].hi, 0);
	CHECK(v[0].lo != v[2].lo || v[0].hi != v[2].hi);
	CHECK(v[0].lo <= v[0].hi);
	for (i = 0; i < 3; i++)
		pmr_pairs_free(p[i]);
}

/* With keep_paths, every retired member with a commit index is kept. */
UNIT_TEST(psamples)
{
	struct pmr_pairs_opts o;
	struct pmr_pairs *p;
	const struct pmr_pairs_psamp *ps;
	size_t n;

	memset(&o, 0, sizeof(o));
	o.keep_paths = 1;
	p = pmr_pairs_new(&o);
	CHECK_EQ(add_meta(p, "profileme", "mode=paired S=50 W=4"), 0);
	feed_paired(p, -1);
	ps = pmr_pairs_psamples(p, &n);
	CHECK_EQ(n, 3);		/* 0xa0 twice and 0xb0; 0xc0 aborted */
	if (n == 3) {
		CHECK_EQ_U64(ps[1].pc, 0xb0);
		CHECK_EQ(ps[1].has_partner, 1);
		CHECK_EQ_U64(ps[1].partner, 0xa0);
		CHECK_EQ(ps[0].has_partner, 0);	/* first members: none */
	}
	pmr_pairs_free(p);
}

UNIT_TEST(metric_names)
{
	int i;

	CHECK(pmr_pairs_nmetrics() > 40);
	for (i = 0; i < pmr_pairs_nmetrics(); i++)
		CHECK_EQ(pmr_pairs_metric_find(pmr_pairs_metric_name(i)), i);
	CHECK_EQ(pmr_pairs_metric_find("nonesuch"), -1);
	CHECK(pmr_pairs_metric_paired(pmr_pairs_metric_find("wasted")));
	CHECK(!pmr_pairs_metric_paired(pmr_pairs_metric_find("execs")));
	CHECK_EQ(pmr_pairs_event_bit("dcache_miss"), PMR_SIM_EV_DCACHE_MISS);
	CHECK_EQ(pmr_pairs_event_bit("retired"), PMR_SIM_EV_RETIRED);
	CHECK_EQ(pmr_pairs_event_bit("synth"), PMR_SIM_EV_SYNTH);
	CHECK_EQ(pmr_pairs_event_bit("nonesuch"), 0);
	CHECK_EQ(pmr_pairs_lat_find("ld"), PMR_PAIRS_LAT_LD);
	CHECK_EQ(pmr_pairs_lat_find("nonesuch"), -1);
}

UNIT_MAIN(UNIT_ENTRY(quantiles), UNIT_ENTRY(intervals), UNIT_ENTRY(buckets),
    UNIT_ENTRY(single), UNIT_ENTRY(paired), UNIT_ENTRY(abort_rule_zero),
    UNIT_ENTRY(merge), UNIT_ENTRY(errors), UNIT_ENTRY(profiles),
    UNIT_ENTRY(partner_paths), UNIT_ENTRY(local_ipc), UNIT_ENTRY(bootstrap),
    UNIT_ENTRY(psamples), UNIT_ENTRY(metric_names))
