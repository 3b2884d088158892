/*
 * test_mhash.c: unit tests of the Multi-Hash model (lib/mhash*.c) against
 * spec/multihash.md §5.3: the hash primitives, thresholds, the CU step,
 * the worked error example, the golden traces with an injected index map,
 * retaining, the invariants I1-I7 on random streams with fixed seeds, the
 * area accounting and the baselines' textbook guarantees.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/mhash.h"
#include "unit.h"

/* A value-profile-like stream: nhot hot tuples of skewed weight take a
 * share hot/100 of events, the rest are from a large noise universe. */
static void
gen(uint64_t *st, unsigned nhot, unsigned hot, uint64_t nnoise,
    uint64_t *pc, uint64_t *v)
{
	uint64_t r = unit_rnd(st), k;

	if (r % 100 < hot) {
		/* Skew: tuple j with weight ~ 1/(j+1). */
		k = unit_rnd(st) % nhot;
		k = unit_rnd(st) % (k + 1);
		*pc = 0x400000 + 4 * k;
		*v = k * 3 + 1;
	} else {
		k = unit_rnd(st) % nnoise;
		*pc = 0x400000 + 4 * (k % 977);
		*v = 0x10000 + k;
	}
}

static struct pmr_mhash *
mk(struct pmr_mhash_cfg *c)
{
	char err[128];
	struct pmr_mhash *m;

	if (pmr_mhash_cfg_finish(c, err, sizeof(err)) != 0) {
		printf("# cfg: %s\n", err);
		return NULL;
	}
	m = pmr_mhash_new(c, err, sizeof(err));
	if (m == NULL)
		printf("# new: %s\n", err);
	return m;
}

UNIT_TEST(bswap64)
{
	CHECK_EQ_U64(pmr_mhash_bswap64(0x0102030405060708ull),
	    0x0807060504030201ull);
	CHECK_EQ_U64(pmr_mhash_bswap64(0), 0);
}

UNIT_TEST(xor_fold)
{
	uint64_t st = 7, v;
	unsigned n, i;

	CHECK_EQ(pmr_mhash_xor_fold(0x1234, 4), 4);
	CHECK_EQ(pmr_mhash_xor_fold(0xFFFF, 8), 0);
	CHECK_EQ(pmr_mhash_xor_fold(0xabcd, 0), 0);
	CHECK_EQ_U64(pmr_mhash_xor_fold(0xdeadbeefull, 64), 0xdeadbeefull);
	/* The last chunk may be partial: 64 = 6*10 + 4. */
	CHECK_EQ(pmr_mhash_xor_fold(0xf000000000000000ull, 10), 0xf);
	for (n = 1; n <= 20; n++)
		for (i = 0; i < 1000; i++) {
			v = unit_rnd(&st);
			CHECK(pmr_mhash_xor_fold(v, n) < (1ull << n));
			/* Linear over XOR, which the fast path relies on. */
			CHECK(pmr_mhash_xor_fold(v ^ i, n) ==
			    (pmr_mhash_xor_fold(v, n) ^ pmr_mhash_xor_fold(i, n)));
		}
}

UNIT_TEST(randomize_identity)
{
	uint8_t id[256];
	uint64_t st = 3, x;
	int i;

	for (i = 0; i < 256; i++)
		id[i] = (uint8_t)i;
	for (i = 0; i < 1000; i++) {
		x = unit_rnd(&st);
		CHECK_EQ_U64(pmr_mhash_randomize(x, id), x);
	}
	CHECK_EQ_U64(pmr_mhash_paper_key(0x0102030405060708ull, 0, id),
	    0x0807060504030201ull);
}

/* The fast packed index equals the reference C of §1.4 for every table. */
UNIT_TEST(index_matches_reference)
{
	static const uint32_t sizes[] = { 2, 128, 512, 2048, 65536, 1u << 20 };
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	uint32_t idx[PMR_MHASH_MAXTABLES];
	uint64_t st = 11, pc, v;
	unsigned s, t, i, n, fold;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (n = 1; n <= 16; n *= 2) {
			pmr_mhash_cfg_init(&c);
			c.tables = n;
			c.entries = sizes[s] * n;
			c.seed = 42 + s;
			m = mk(&c);
			CHECK(m != NULL);
			if (m == NULL)
				return;
			for (fold = 0; (1u << fold) < sizes[s]; fold++)
				;
			for (i = 0; i < 200; i++) {
				pc = unit_rnd(&st);
				v = i < 100 ? i : unit_rnd(&st);
				CHECK_EQ(pmr_mhash_index(m, pc, v, idx), n);
				for (t = 0; t < n; t++) {
					uint64_t want = pmr_mhash_xor_fold(
					    pmr_mhash_paper_key(pc, v,
					    pmr_mhash_sbox(m, t)), fold);

					CHECK_EQ_U64(idx[t], want);
					CHECK(idx[t] < sizes[s]);
				}
			}
			pmr_mhash_free(m);
		}
}

UNIT_TEST(seed_determinism_and_independence)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash *a, *b, *d;
	uint32_t ia[4], ib[4], id[4];
	unsigned hist[512], coll = 0, same = 0, n = 0, i, pc, v;
	double chi = 0, e;

	pmr_mhash_cfg_init(&c);	/* 4 x 512 */
	a = mk(&c);
	b = mk(&c);
	c.seed = 2;
	d = mk(&c);
	CHECK(a != NULL && b != NULL && d != NULL);
	if (a == NULL || b == NULL || d == NULL)
		return;
	memset(hist, 0, sizeof(hist));
	/* Sequential pcs times small values. */
	for (pc = 0; pc < 4096; pc++)
		for (v = 0; v < 16; v++) {
			pmr_mhash_index(a, 0x120000000ull + 4 * pc, v, ia);
			pmr_mhash_index(b, 0x120000000ull + 4 * pc, v, ib);
			pmr_mhash_index(d, 0x120000000ull + 4 * pc, v, id);
			same += memcmp(ia, ib, sizeof(ia)) == 0;
			hist[ia[0]]++;
			coll += ia[0] == ia[1];
			coll += ia[0] == id[0];
			n++;
		}
	CHECK_EQ(same, n);
	e = (double)n / 512;
	for (i = 0; i < 512; i++)
		chi += (hist[i] - e) * (hist[i] - e) / e;
	/* 511 degrees of freedom: mean 511, sd ~32; allow 5 sd. */
	printf("# chi-square %.1f (511 df), collision rate %.5f (1/S %.5f)\n",
	    chi, coll / (2.0 * n), 1.0 / 512);
	CHECK(chi < 511 + 5 * 32);
	CHECK_NEAR(coll / (2.0 * n), 1.0 / 512, 0.5 / 512);
	pmr_mhash_free(a);
	pmr_mhash_free(b);
	pmr_mhash_free(d);
}

/* §1.4: (pc, v) and (bswap v, bswap pc) collide in every table of the
 * paper hash, whatever the seed; tabulation hashing does not have it. */
UNIT_TEST(structural_collision)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m, *tab;
	uint32_t i1[8], i2[8];
	uint64_t st = 5, pc, v;
	unsigned i, t, all = 0, tall = 0;

	pmr_mhash_cfg_init(&c);
	c.tables = 8;
	c.entries = 8 * 256;
	c.seed = 99;
	m = mk(&c);
	c.hash = PMR_MHASH_HTAB;
	tab = mk(&c);
	CHECK(m != NULL && tab != NULL);
	if (m == NULL || tab == NULL)
		return;
	for (i = 0; i < 1000; i++) {
		pc = unit_rnd(&st);
		v = unit_rnd(&st);
		pmr_mhash_index(m, pc, v, i1);
		pmr_mhash_index(m, pmr_mhash_bswap64(v), pmr_mhash_bswap64(pc),
		    i2);
		for (t = 0; t < 8 && i1[t] == i2[t]; t++)
			;
		all += t == 8;
		pmr_mhash_index(tab, pc, v, i1);
		pmr_mhash_index(tab, pmr_mhash_bswap64(v),
		    pmr_mhash_bswap64(pc), i2);
		for (t = 0; t < 8 && i1[t] == i2[t]; t++)
			;
		tall += t == 8;
	}
	CHECK_EQ(all, 1000);
	CHECK_EQ(tall, 0);
	pmr_mhash_free(m);
	pmr_mhash_free(tab);
}

UNIT_TEST(threshold)
{
	uint64_t p;

	CHECK_EQ(pmr_mhash_threshold(10000, PMR_MHASH_PPB / 100), 100);
	CHECK_EQ(pmr_mhash_threshold(1000000, PMR_MHASH_PPB / 1000), 1000);
	CHECK_EQ(pmr_mhash_threshold(10, 3 * PMR_MHASH_PPB / 10), 3);
	CHECK_EQ(pmr_mhash_threshold(7, 3 * PMR_MHASH_PPB / 10), 3);	/* 2.1 */
	CHECK_EQ(pmr_mhash_threshold(150, PMR_MHASH_PPB / 100), 2);	/* 1.5 */
	CHECK_EQ(pmr_mhash_parse_pct("1", &p), 0);
	CHECK_EQ(p, 10000000);
	CHECK_EQ(pmr_mhash_parse_pct("0.1", &p), 0);
	CHECK_EQ(p, 1000000);
	CHECK_EQ(pmr_mhash_parse_pct("30%", &p), 0);
	CHECK_EQ(p, 300000000);
	CHECK_EQ(pmr_mhash_parse_pct("100", &p), 0);
	CHECK_EQ(pmr_mhash_parse_pct("0.0000001", &p), 0);
	CHECK_EQ(p, 1);
	CHECK_EQ(pmr_mhash_parse_pct("0", &p), -1);
	CHECK_EQ(pmr_mhash_parse_pct("101", &p), -1);
	CHECK_EQ(pmr_mhash_parse_pct("1x", &p), -1);
	CHECK_EQ(pmr_mhash_parse_pct("", &p), -1);
	CHECK_EQ(pmr_mhash_parse_pct(".", &p), -1);
	CHECK_EQ(pmr_mhash_parse_pct("0.00000001", &p), -1);
}

UNIT_TEST(cu_step)
{
	uint32_t a[3] = { 3, 5, 3 }, b[3] = { 2, 2, 2 }, s[2] = { 7, 6 };
	uint32_t *pa[3] = { &a[0], &a[1], &a[2] };
	uint32_t *pb[3] = { &b[0], &b[1], &b[2] };
	uint32_t *ps[2] = { &s[0], &s[1] };
	uint64_t sat = 0;

	CHECK_EQ(pmr_mhash_update(pa, 3, 0xffffff, 1, &sat), 4);
	CHECK(a[0] == 4 && a[1] == 5 && a[2] == 4);
	CHECK_EQ(pmr_mhash_update(pb, 3, 0xffffff, 1, &sat), 3);
	CHECK(b[0] == 3 && b[1] == 3 && b[2] == 3);
	/* Plain update increments all. */
	CHECK_EQ(pmr_mhash_update(pa, 3, 0xffffff, 0, &sat), 5);
	CHECK(a[0] == 5 && a[1] == 6 && a[2] == 5);
	CHECK_EQ(sat, 0);
	/* Saturation at 2^3 - 1 = 7. */
	CHECK_EQ(pmr_mhash_update(ps, 2, 7, 0, &sat), 7);
	CHECK(s[0] == 7 && s[1] == 7);
	CHECK_EQ(sat, 1);
	CHECK_EQ(pmr_mhash_update(ps, 2, 7, 1, &sat), 7);
	CHECK(s[0] == 7 && s[1] == 7);
	CHECK_EQ(sat, 2);
}

UNIT_TEST(worked_error_example)
{
	/* §3.2, T = 100: A exact, B NP, C FN, D FP. */
	struct pmr_mhash_row r[4] = {
		{ 1, 0, 500, 500, PMR_MHASH_OK },
		{ 2, 0, 230, 200, PMR_MHASH_OK },
		{ 3, 0, 0, 120, PMR_MHASH_FN },
		{ 4, 0, 140, 60, PMR_MHASH_OK },
	};
	struct pmr_mhash_err e;
	struct pmr_mhash_enet a;
	double parts[4];

	pmr_mhash_err_rows(r, 4, 100, &e);
	CHECK_EQ(e.sum_fp, 880);
	CHECK_NEAR(e.e * 100, 26.136, 0.01);
	CHECK_NEAR(e.e_np * 100, 3.41, 0.01);
	CHECK_NEAR(e.e_fn * 100, 13.64, 0.01);
	CHECK_NEAR(e.e_fp * 100, 9.09, 0.01);
	CHECK_NEAR(e.e_nn, 0, 1e-12);
	CHECK_NEAR(e.e, e.e_np + e.e_nn + e.e_fp + e.e_fn, 1e-12);
	CHECK(r[0].cls == PMR_MHASH_OK && r[1].cls == PMR_MHASH_NP &&
	    r[2].cls == PMR_MHASH_FN && r[3].cls == PMR_MHASH_FP);
	CHECK(e.n_ok == 1 && e.n_np == 1 && e.n_fn == 1 && e.n_fp == 1);
	/* E_net averages intervals; empty ones are excluded by default. */
	memset(&a, 0, sizeof(a));
	pmr_mhash_enet_add(&a, &e, 0);
	memset(&e, 0, sizeof(e));
	pmr_mhash_enet_add(&a, &e, 0);
	CHECK_NEAR(pmr_mhash_enet(&a, parts), 0.26136, 1e-4);
	CHECK_EQ(a.empty, 1);
	CHECK_NEAR(parts[3], 0.13636, 1e-4);
	a.empty_zero = 1;
	pmr_mhash_enet_add(&a, &e, 0);
	CHECK_NEAR(pmr_mhash_enet(&a, NULL), 0.26136 / 2, 1e-4);
	pmr_mhash_enet_add(&a, &e, 1);
	CHECK_EQ(a.partial, 1);
	/* An E above 100% is not clamped: FP with fp = 1, fh = 1000. */
	{
		struct pmr_mhash_row f = { 9, 9, 1000, 1, PMR_MHASH_OK };

		pmr_mhash_err_rows(&f, 1, 100, &e);
		CHECK_NEAR(e.e, 999, 1e-9);
	}
}

/* --- golden traces of §5.3 with an injected index map ------------------- */

struct golden {
	const char *stream;
	unsigned n, s, l, a;
	const char *pct;
	int cu, reset;
	const char *want;	/* "a=3 b=3 c=4", sorted by count, pc */
	double e;		/* percent */
};

static void
run_golden(const struct golden *g)
{
	/* a -> (0,0), b -> (0,1), c -> (1,1); one table: all 0. */
	static const uint32_t map[3][2] = { { 0, 0 }, { 0, 1 }, { 1, 1 } };
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m, *x;
	const struct pmr_mhash_cand *r;
	struct pmr_mhash_err e;
	struct pmr_mhash_row rows[16];
	char got[128];
	size_t n, nr, i, len = 0;
	const char *p;
	int done = 0;

	pmr_mhash_cfg_init(&c);
	c.tables = g->n;
	c.entries = g->n * g->s;
	c.interval = g->l;
	CHECK_EQ(pmr_mhash_parse_pct(g->pct, &c.theta_ppb), 0);
	c.acc = g->a;
	c.cu = g->cu;
	c.reset = g->reset;
	c.retain = 0;
	c.hash = PMR_MHASH_HGIVEN;
	m = mk(&c);
	c.algo = PMR_MHASH_EXACT;
	c.hash = PMR_MHASH_HPAPER;
	x = mk(&c);
	CHECK(m != NULL && x != NULL);
	if (m == NULL || x == NULL)
		return;
	for (p = g->stream; *p != '\0'; p++) {
		if (*p == ' ')
			continue;
		done = pmr_mhash_add_idx(m, (uint64_t)*p, 0, map[*p - 'a']);
		(void)pmr_mhash_add(x, (uint64_t)*p, 0);
	}
	if (!done) {
		CHECK(pmr_mhash_finish(m) == 1);
		CHECK(pmr_mhash_finish(x) == 1);
	}
	r = pmr_mhash_result(m, &n);
	got[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%c=%llu",
		    i ? " " : "", (char)r[i].pc, (unsigned long long)r[i].count);
	CHECK_STR(got, g->want);
	pmr_mhash_eval(x, r, n, &e, rows, &nr);
	CHECK_NEAR(e.e * 100, g->e, 1e-9);
	pmr_mhash_free(m);
	pmr_mhash_free(x);
}

UNIT_TEST(golden_traces)
{
	static const struct golden g[] = {
		{ "aabbcabccc", 2, 2, 10, 3, "30", 1, 0, "c=4 a=3 b=3", 0 },
		{ "aabbcabccc", 2, 2, 10, 3, "30", 0, 0, "b=4 c=4 a=3", 10 },
		{ "aabbcabccc", 2, 2, 10, 3, "30", 1, 1, "c=4 a=3", 30 },
		{ "aabbcabccc", 2, 2, 10, 3, "30", 0, 1, "c=4 a=3", 30 },
		{ "aaab", 1, 1, 4, 3, "75", 1, 0, "b=4 a=3", 75 },
		{ "aaab", 1, 1, 4, 3, "75", 1, 1, "a=3", 0 },
		{ "aab", 1, 1, 3, 3, "100", 1, 0, "b=3", 200 },
	};
	size_t i;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		printf("# golden %zu\n", i);
		run_golden(&g[i]);
	}
}

/* Retaining across two intervals (§5.3). */
UNIT_TEST(retaining)
{
	static const uint32_t zero[1] = { 0 };
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	const struct pmr_mhash_cand *r;
	uint64_t cnt;
	size_t n;
	int repl, i;
	uint32_t nrepl;

	/* N=1, S=1, L=10, T=3, A=2, P1, R1 so b and c can each promote. */
	pmr_mhash_cfg_init(&c);
	c.tables = 1;
	c.entries = 1;
	c.interval = 10;
	c.theta_ppb = 3 * PMR_MHASH_PPB / 10;
	c.acc = 2;
	c.reset = 1;
	c.retain = 1;
	c.hash = PMR_MHASH_HGIVEN;
	m = mk(&c);
	CHECK(m != NULL);
	if (m == NULL)
		return;
	/* Interval 0: a x3 (promoted), b x3 (promoted), 4 noise tuples. */
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'a', 0, zero);
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'b', 0, zero);
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'n', (uint64_t)i, zero);
	CHECK_EQ(pmr_mhash_add_idx(m, 'n', 9, zero), 1);
	r = pmr_mhash_result(m, &n);
	CHECK_EQ(n, 2);
	/* Both retained, replaceable, count 0; the counters are zero. */
	CHECK(pmr_mhash_acc_find(m, 'a', 0, &cnt, &repl) == 1 && cnt == 0 &&
	    repl == 1);
	CHECK(pmr_mhash_acc_find(m, 'b', 0, &cnt, &repl) == 1 && repl == 1);
	CHECK_EQ(pmr_mhash_table_sum(m, 0), 0);
	/* Interval 1: a's hits stay off the counters; non-replaceable at
	 * exactly the third hit. */
	(void)pmr_mhash_add_idx(m, 'a', 0, zero);
	(void)pmr_mhash_add_idx(m, 'a', 0, zero);
	CHECK(pmr_mhash_acc_find(m, 'a', 0, &cnt, &repl) == 1 && cnt == 2 &&
	    repl == 1);
	CHECK_EQ(pmr_mhash_table_sum(m, 0), 0);
	(void)pmr_mhash_add_idx(m, 'a', 0, zero);
	CHECK(pmr_mhash_acc_find(m, 'a', 0, &cnt, &repl) == 1 && cnt == 3 &&
	    repl == 0);
	CHECK_EQ(pmr_mhash_istats(m)->requalified, 0);
	/* c promotes with A full: evicts b, the only replaceable entry. */
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'c', 0, zero);
	CHECK_EQ(pmr_mhash_table_sum(m, 0), 0);	/* reset after promotion */
	CHECK(pmr_mhash_acc_find(m, 'b', 0, &cnt, &repl) == 0);
	CHECK(pmr_mhash_acc_find(m, 'c', 0, &cnt, &repl) == 1 && cnt == 3);
	CHECK_EQ(pmr_mhash_acc_used(m, &nrepl), 2);
	CHECK_EQ(nrepl, 0);
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'z', (uint64_t)i, zero);
	CHECK_EQ(pmr_mhash_add_idx(m, 'z', 9, zero), 1);
	CHECK_EQ(pmr_mhash_istats(m)->evictions, 1);
	CHECK_EQ(pmr_mhash_istats(m)->evict_live, 0);
	CHECK_EQ(pmr_mhash_istats(m)->requalified, 1);
	CHECK_EQ(pmr_mhash_istats(m)->hashed, 7);
	r = pmr_mhash_result(m, &n);
	CHECK_EQ(n, 2);
	CHECK(n == 2 && r[0].pc == 'a' && r[0].count == 3 && r[1].pc == 'c');
	/* Interval 2: a gets 1 hit only and is flushed at the end. */
	(void)pmr_mhash_add_idx(m, 'a', 0, zero);
	for (i = 0; i < 8; i++)
		(void)pmr_mhash_add_idx(m, 'y', (uint64_t)i, zero);
	CHECK_EQ(pmr_mhash_add_idx(m, 'y', 8, zero), 1);
	r = pmr_mhash_result(m, &n);
	for (i = 0; i < (int)n; i++)
		CHECK(r[i].pc != 'a');
	CHECK(pmr_mhash_acc_find(m, 'a', 0, &cnt, &repl) == 0);
	pmr_mhash_free(m);
}

/* Victim choice: lowest count, ties to the lowest index. */
UNIT_TEST(victim_lowest)
{
	static const uint32_t zero[1] = { 0 };
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	uint64_t cnt;
	int repl, i;

	pmr_mhash_cfg_init(&c);
	c.tables = 1;
	c.entries = 1;
	c.interval = 12;
	c.theta_ppb = PMR_MHASH_PPB / 4;	/* T = 3 */
	c.acc = 3;
	c.reset = 1;
	c.hash = PMR_MHASH_HGIVEN;
	m = mk(&c);
	if (m == NULL)
		return;
	for (i = 0; i < 9; i++)	/* a, b, c promoted */
		(void)pmr_mhash_add_idx(m, (uint64_t)"abc"[i / 3], 0, zero);
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'n', (uint64_t)i, zero);
	/* b gets one retained hit; a and c have 0: a (lower index) goes. */
	(void)pmr_mhash_add_idx(m, 'b', 0, zero);
	for (i = 0; i < 3; i++)
		(void)pmr_mhash_add_idx(m, 'd', 0, zero);
	CHECK(pmr_mhash_acc_find(m, 'a', 0, &cnt, &repl) == 0);
	CHECK(pmr_mhash_acc_find(m, 'b', 0, &cnt, &repl) == 1);
	CHECK(pmr_mhash_acc_find(m, 'c', 0, &cnt, &repl) == 1);
	CHECK(pmr_mhash_acc_find(m, 'd', 0, &cnt, &repl) == 1 && !repl);
	pmr_mhash_free(m);
}

/* --- invariants on random streams ----------------------------------------- */

#define NT 400	/* tuple universe of the invariant streams */

static void
small_gen(uint64_t *st, uint64_t *pc, uint64_t *v)
{
	uint64_t k = unit_rnd(st) % NT;

	if (unit_rnd(st) % 2)
		k = k % 20;	/* a hot subset */
	*pc = 0x1000 + 4 * (k % 37);
	*v = k;
}

/* I1 (and I2): R0, C0 and C1. */
UNIT_TEST(inv_counters)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	const struct pmr_mhash_stats *s;
	uint32_t idx[8];
	uint64_t st, pc, v, hashed[NT], cnt, mn;
	int cu, seed, i, repl, t;

	for (cu = 0; cu <= 1; cu++)
		for (seed = 1; seed <= 5; seed++) {
			pmr_mhash_cfg_init(&c);
			c.tables = 4;
			c.entries = 64;
			c.interval = 1000;
			c.cu = cu;
			c.reset = 0;
			c.retain = seed & 1;
			c.seed = (uint64_t)seed;
			c.acc = 8;
			m = mk(&c);
			if (m == NULL)
				return;
			st = (uint64_t)seed * 1000;
			memset(hashed, 0, sizeof(hashed));
			for (i = 0; i < 10000; i++) {
				small_gen(&st, &pc, &v);
				if (!pmr_mhash_acc_find(m, pc, v, &cnt, &repl))
					hashed[v]++;
				if (pmr_mhash_add(m, pc, v)) {
					s = pmr_mhash_istats(m);
					if (cu)
						CHECK(s->tsum_max <= s->hashed);
					else
						CHECK(s->tsum_min == s->hashed &&
						    s->tsum_max == s->hashed);
					CHECK_EQ(pmr_mhash_table_sum(m, 0), 0);
					memset(hashed, 0, sizeof(hashed));
					continue;
				}
				if (pmr_mhash_acc_find(m, pc, v, &cnt, &repl))
					continue;
				pmr_mhash_index(m, pc, v, idx);
				mn = UINT64_MAX;
				for (t = 0; t < 4; t++)
					if (pmr_mhash_counter(m, t, idx[t]) < mn)
						mn = pmr_mhash_counter(m, t,
						    idx[t]);
				CHECK(mn >= hashed[v]);
			}
			pmr_mhash_free(m);
		}
}

/* Runs model and exact side by side, checks eval per interval. */
static void
run_eval(struct pmr_mhash_cfg *c, unsigned nhot, unsigned hot,
    uint64_t nnoise, uint64_t events, uint64_t seed, int want_exact,
    struct pmr_mhash_enet *agg)
{
	struct pmr_mhash_cfg xc = *c;
	struct pmr_mhash *m, *x;
	const struct pmr_mhash_cand *r, *xr;
	const struct pmr_mhash_stats *s;
	struct pmr_mhash_err e;
	struct pmr_mhash_row *rows;
	uint64_t st = seed, pc, v, i;
	size_t n, xn, nr, j;
	int d;

	xc.algo = PMR_MHASH_EXACT;
	xc.hash = PMR_MHASH_HPAPER;
	m = mk(c);
	x = mk(&xc);
	if (m == NULL || x == NULL)
		return;
	rows = malloc((c->interval + c->acc + c->k + 1) * sizeof(*rows));
	for (i = 0; i < events; i++) {
		gen(&st, nhot, hot, nnoise, &pc, &v);
		d = pmr_mhash_add(m, pc, v);
		CHECK_EQ(pmr_mhash_add(x, pc, v), d);
		if (!d)
			continue;
		r = pmr_mhash_result(m, &n);
		xr = pmr_mhash_result(x, &xn);
		pmr_mhash_eval(x, r, n, &e, rows, &nr);
		if (agg != NULL)
			pmr_mhash_enet_add(agg, &e, 0);
		s = pmr_mhash_istats(m);
		if (c->algo == PMR_MHASH_MH && !c->reset && s->overflow == 0 &&
		    s->evictions == 0) {
			/* I3: no FN, no NN. */
			CHECK_EQ(e.n_fn, 0);
			CHECK_EQ(e.n_nn, 0);
		}
		if (c->algo == PMR_MHASH_SS)	/* never underestimates */
			CHECK_EQ(e.n_fn + e.n_nn, 0);
		if (c->algo == PMR_MHASH_CMCU && s->overflow == 0)
			CHECK_EQ(e.n_fn + e.n_nn, 0);
		if (c->algo == PMR_MHASH_MG)	/* never overestimates */
			CHECK_EQ(e.n_fp + e.n_np, 0);
		/* I5 */
		CHECK(n <= (c->algo == PMR_MHASH_MH ? c->acc : n));
		if (want_exact) {
			/* I4: identical to the exact profile. */
			CHECK_EQ(n, xn);
			for (j = 0; j < n && j < xn; j++)
				CHECK(r[j].pc == xr[j].pc &&
				    r[j].value == xr[j].value &&
				    r[j].count == xr[j].count);
		}
	}
	free(rows);
	pmr_mhash_free(m);
	pmr_mhash_free(x);
}

UNIT_TEST(inv_no_fn_without_reset)
{
	struct pmr_mhash_cfg c;
	int cu, p;

	for (cu = 0; cu <= 1; cu++)
		for (p = 0; p <= 1; p++) {
			pmr_mhash_cfg_init(&c);
			c.cu = cu;
			c.retain = p;
			c.acc = 1000;
			run_eval(&c, 60, 50, 3000, 200000, 17 + cu + 2 * p, 0,
			    NULL);
		}
}

UNIT_TEST(inv_ideal_hash_is_exact)
{
	struct pmr_mhash_cfg c;
	int cu, r, p;

	for (cu = 0; cu <= 1; cu++)
		for (r = 0; r <= 1; r++)
			for (p = 0; p <= 1; p++) {
				pmr_mhash_cfg_init(&c);
				c.hash = PMR_MHASH_HEXACT;
				c.cu = cu;
				c.reset = r;
				c.retain = p;
				c.acc = 1000;
				run_eval(&c, 60, 50, 3000, 100000, 5, 1, NULL);
			}
}

/* I6: a retained tuple that re-qualifies without evictions is exact. */
UNIT_TEST(inv_retained_exact)
{
	struct pmr_mhash_cfg c, xc;
	struct pmr_mhash *m, *x;
	const struct pmr_mhash_cand *r;
	uint64_t st = 77, pc, v, cnt, i;
	uint64_t keep_pc[1000], keep_v[1000];
	size_t n, j, nk = 0, k, checked = 0;
	int repl;

	pmr_mhash_cfg_init(&c);
	c.acc = 1000;
	m = mk(&c);
	xc = c;
	xc.algo = PMR_MHASH_EXACT;
	x = mk(&xc);
	if (m == NULL || x == NULL)
		return;
	for (i = 0; i < 200000; i++) {
		gen(&st, 60, 50, 3000, &pc, &v);
		(void)pmr_mhash_add(x, pc, v);
		if (!pmr_mhash_add(m, pc, v))
			continue;
		r = pmr_mhash_result(m, &n);
		if (pmr_mhash_istats(m)->evictions == 0)
			for (j = 0; j < n; j++)
				for (k = 0; k < nk; k++)
					if (keep_pc[k] == r[j].pc &&
					    keep_v[k] == r[j].value) {
						CHECK_EQ(r[j].count,
						    pmr_mhash_exact_count(x,
						    r[j].pc, r[j].value));
						checked++;
					}
		/* The retained set of the next interval. */
		for (nk = 0, j = 0; j < n; j++)
			if (pmr_mhash_acc_find(m, r[j].pc, r[j].value, &cnt,
			    &repl) && repl) {
				keep_pc[nk] = r[j].pc;
				keep_v[nk++] = r[j].value;
			}
	}
	printf("# %zu re-qualified tuples checked\n", checked);
	CHECK(checked > 100);
	pmr_mhash_free(m);
	pmr_mhash_free(x);
}

UNIT_TEST(inv_deterministic)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash *a, *b;
	const struct pmr_mhash_cand *ra, *rb;
	uint64_t st = 1, pc, v, i;
	size_t na, nb;
	int da, db, diff = 0;

	pmr_mhash_cfg_init(&c);
	a = mk(&c);
	b = mk(&c);
	if (a == NULL || b == NULL)
		return;
	for (i = 0; i < 100000; i++) {
		gen(&st, 60, 50, 5000, &pc, &v);
		da = pmr_mhash_add(a, pc, v);
		db = pmr_mhash_add(b, pc, v);
		if (da != db)
			diff++;
		if (da) {
			ra = pmr_mhash_result(a, &na);
			rb = pmr_mhash_result(b, &nb);
			if (na != nb || memcmp(ra, rb, na * sizeof(*ra)) != 0)
				diff++;
		}
	}
	CHECK_EQ(diff, 0);
	pmr_mhash_free(a);
	pmr_mhash_free(b);
}

/* Relative ordering of §5.3 on a value-like stream: MH4 C1R0P1 < BSH,
 * and the paper preset's average error is small. */
UNIT_TEST(paper_shape)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash_enet mh, bsh;
	double emh, ebsh;

	memset(&mh, 0, sizeof(mh));
	memset(&bsh, 0, sizeof(bsh));
	pmr_mhash_cfg_init(&c);
	CHECK_EQ(pmr_mhash_preset(&c, "paper-mh-10k"), 0);
	run_eval(&c, 40, 60, 4000, 500000, 3, 0, &mh);
	pmr_mhash_cfg_init(&c);
	CHECK_EQ(pmr_mhash_preset(&c, "paper-bsh-10k"), 0);
	run_eval(&c, 40, 60, 4000, 500000, 3, 0, &bsh);
	emh = pmr_mhash_enet(&mh, NULL);
	ebsh = pmr_mhash_enet(&bsh, NULL);
	printf("# E_net mh %.4f%% bsh %.4f%%\n", 100 * emh, 100 * ebsh);
	CHECK(emh < ebsh);
	CHECK(emh < 0.01);
}

UNIT_TEST(area)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash_area a;
	char err[128];

	pmr_mhash_cfg_init(&c);
	CHECK_EQ(pmr_mhash_preset(&c, "hpca03-1pct"), 0);
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), 0);
	pmr_mhash_area(&c, &a);
	CHECK_EQ(c.acc, 100);
	CHECK_EQ(a.hash_bytes, 6144);
	CHECK_EQ(a.paper_total, 7144);
	CHECK_EQ(a.acc_entry_bits, 154);
	CHECK_NEAR(a.total, 6144 + 1925, 1e-9);
	CHECK_EQ(pmr_mhash_preset(&c, "paper-mh-1m"), 0);
	c.acc = 0;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), 0);
	pmr_mhash_area(&c, &a);
	CHECK_EQ(c.acc, 1000);
	CHECK_EQ(c.thresh, 1000);
	CHECK_EQ(a.paper_total, 16144);
	/* Baselines at equal bytes. */
	c.algo = PMR_MHASH_SS;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), 0);
	CHECK_EQ(c.budget, 16144);
	CHECK_EQ(c.k, 1614);
	c.exact_bytes = 1;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), 0);
	CHECK_EQ(c.k, (uint32_t)((6144 + 19250) / 19.0));
	c.algo = PMR_MHASH_CMCU;
	c.exact_bytes = 0;
	c.entries = 2048;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), 0);
	CHECK_EQ(c.size, 512);
	pmr_mhash_area(&c, &a);
	CHECK_NEAR(a.algo_bytes, 16144, 1e-9);
}

UNIT_TEST(cfg_errors)
{
	struct pmr_mhash_cfg c;
	char err[128];

	pmr_mhash_cfg_init(&c);
	c.entries = 2047;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), -1);
	pmr_mhash_cfg_init(&c);
	c.tables = 3;
	c.entries = 3 * 166;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), -1);
	c.hash = PMR_MHASH_HTAB;	/* mod S fallback */
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), 0);
	pmr_mhash_cfg_init(&c);
	c.cbits = 33;
	CHECK_EQ(pmr_mhash_cfg_finish(&c, err, sizeof(err)), -1);
	pmr_mhash_cfg_init(&c);
	CHECK_EQ(pmr_mhash_preset(&c, "nope"), -1);
}

/* The mod-S fallback keeps indices in range. */
UNIT_TEST(mod_fallback)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	uint32_t idx[3];
	uint64_t st = 1;
	int i;

	pmr_mhash_cfg_init(&c);
	c.tables = 3;
	c.entries = 3 * 166;
	c.hash = PMR_MHASH_HTAB;
	m = mk(&c);
	if (m == NULL)
		return;
	for (i = 0; i < 10000; i++) {
		pmr_mhash_index(m, unit_rnd(&st), unit_rnd(&st), idx);
		CHECK(idx[0] < 166 && idx[1] < 166 && idx[2] < 166);
	}
	for (i = 0; i < 30000; i++)
		(void)pmr_mhash_add(m, unit_rnd(&st) % 100, 1);
	pmr_mhash_free(m);
}

UNIT_TEST(baselines)
{
	struct pmr_mhash_cfg c;
	struct pmr_mhash_enet a;
	static const enum pmr_mhash_algo al[] = { PMR_MHASH_SS, PMR_MHASH_MG,
		PMR_MHASH_CMCU };
	size_t i;

	for (i = 0; i < 3; i++) {
		memset(&a, 0, sizeof(a));
		pmr_mhash_cfg_init(&c);
		c.algo = al[i];
		run_eval(&c, 40, 60, 4000, 300000, 9, 0, &a);
		printf("# %s k=%u E_net %.4f%%\n", pmr_mhash_algo_name(al[i]),
		    c.k, 100 * pmr_mhash_enet(&a, NULL));
		CHECK(a.intervals == 30);
	}
}

/* pmr_mhash_add_many() is pmr_mhash_add() on each event, for every
 * algorithm. */
UNIT_TEST(add_many_equivalent)
{
	static const enum pmr_mhash_algo al[] = { PMR_MHASH_MH, PMR_MHASH_SS,
		PMR_MHASH_CMCU, PMR_MHASH_MG, PMR_MHASH_EXACT };
	static uint64_t pc[50000], v[50000];
	struct pmr_mhash_cfg c;
	struct pmr_mhash *a, *b;
	const struct pmr_mhash_cand *ra, *rb;
	size_t i, j, k, na, nb, off;
	uint64_t st = 21;
	int closed, d, diff;

	for (i = 0; i < 50000; i++)
		gen(&st, 60, 50, 5000, &pc[i], &v[i]);
	for (j = 0; j < sizeof(al) / sizeof(al[0]); j++) {
		pmr_mhash_cfg_init(&c);
		c.algo = al[j];
		c.interval = 7001;	/* intervals end inside batches */
		a = mk(&c);
		b = mk(&c);
		if (a == NULL || b == NULL)
			return;
		diff = 0;
		for (off = 0; off < 50000; off += k) {
			k = pmr_mhash_add_many(a, pc + off, v + off,
			    50000 - off < 1000 ? 50000 - off : 1000, &closed);
			for (i = 0, d = 0; i < k; i++)
				d = pmr_mhash_add(b, pc[off + i], v[off + i]);
			if (d != closed)
				diff++;
			if (closed) {
				ra = pmr_mhash_result(a, &na);
				rb = pmr_mhash_result(b, &nb);
				if (na != nb ||
				    memcmp(ra, rb, na * sizeof(*ra)) != 0)
					diff++;
			}
		}
		CHECK_EQ(diff, 0);
		CHECK_EQ(pmr_mhash_stats(a)->events, 49007);
		pmr_mhash_free(a);
		pmr_mhash_free(b);
	}
}

UNIT_TEST(synth)
{
	struct pmr_mhash_synth s, t;
	const char *bad = NULL;
	uint64_t pc, v, pc2, v2, n = 0;

	pmr_mhash_synth_init(&s, 3);
	CHECK_EQ(pmr_mhash_synth_parse(&s, "n=1000,hot=5,share=100,noise=7",
	    &bad), 0);
	CHECK_EQ(s.events, 1000);
	CHECK_EQ(s.nhot, 5);
	t = s;
	while (pmr_mhash_synth_next(&s, &pc, &v)) {
		CHECK(pmr_mhash_synth_next(&t, &pc2, &v2) && pc == pc2 &&
		    v == v2);
		CHECK(v < 5 * 8);	/* hot tuples only */
		n++;
	}
	CHECK_EQ(n, 1000);
	CHECK_EQ(pmr_mhash_synth_parse(&s, "n=1,bogus=2", &bad), -1);
	CHECK_STR(bad, "bogus=2");
	CHECK_EQ(pmr_mhash_synth_parse(&s, "share=101", &bad), -1);
	CHECK_EQ(pmr_mhash_synth_parse(&s, "n=", &bad), -1);
}

/* §1.7: the table of computed bounds. */
UNIT_TEST(fp_bound)
{
	CHECK_NEAR(pmr_mhash_fp_bound(1, 500, 1), 0.20, 1e-9);
	CHECK_NEAR(pmr_mhash_fp_bound(2, 500, 1), 0.16, 1e-9);
	CHECK_NEAR(pmr_mhash_fp_bound(3, 500, 1), 0.216, 1e-9);
	CHECK_NEAR(pmr_mhash_fp_bound(4, 500, 1), 0.4096, 1e-9);
	CHECK_NEAR(pmr_mhash_fp_bound(4, 1000, 1), 0.0256, 1e-9);
	CHECK_NEAR(pmr_mhash_fp_bound(1, 2048, 1), 0.0488, 1e-4);
	CHECK_NEAR(pmr_mhash_fp_bound(8, 2048, 1), 5.4e-4, 1e-5);
	CHECK(pmr_mhash_fp_bound(1, 2048, 0.1) > 0.48);
	CHECK(pmr_mhash_fp_bound(2, 2048, 0.1) > 0.95);
}

/*
 * §5.3 FP-rate check: with C0 R0 P0 and noise tuples that occur once
 * each, the fraction of distinct non-candidate tuples that become false
 * positives stays below twice the bound.
 */
UNIT_TEST(fp_rate_within_bound)
{
	static const unsigned tables[] = { 1, 2, 4 };
	struct pmr_mhash_cfg c, xc;
	struct pmr_mhash *m, *x;
	const struct pmr_mhash_cand *r;
	struct pmr_mhash_err e;
	uint64_t st, k, i, noise = 0, nfp = 0, nonc = 0, pc, v;
	size_t n, t;
	double rate, bound;

	for (t = 0; t < 3; t++) {
		pmr_mhash_cfg_init(&c);
		c.tables = tables[t];
		c.entries = 1024;
		c.cu = 0;
		c.reset = 0;
		c.retain = 0;
		c.acc = 1000;
		xc = c;
		xc.algo = PMR_MHASH_EXACT;
		m = mk(&c);
		x = mk(&xc);
		if (m == NULL || x == NULL)
			return;
		st = 99 + t;
		nfp = nonc = 0;
		for (i = 0; i < 500000; i++) {
			k = unit_rnd(&st);
			if (k % 100 < 40) {	/* 20 hot tuples, ~200 each */
				pc = 0x1000 + 4 * ((k >> 8) % 20);
				v = 1;
			} else {		/* noise: each tuple once */
				pc = 0x2000 + 4 * (noise % 1000);
				v = 0x100000 + noise++;
			}
			(void)pmr_mhash_add(x, pc, v);
			if (!pmr_mhash_add(m, pc, v))
				continue;
			r = pmr_mhash_result(m, &n);
			pmr_mhash_eval(x, r, n, &e, NULL, NULL);
			nfp += e.n_fp;
			nonc += pmr_mhash_istats(x)->distinct - e.n_exact;
		}
		rate = (double)nfp / (double)nonc;
		bound = pmr_mhash_fp_bound(tables[t], 1024, 1);
		printf("# N=%u FP rate %.5f bound %.5f\n", tables[t], rate,
		    bound);
		CHECK(rate <= 2 * bound);
		pmr_mhash_free(m);
		pmr_mhash_free(x);
	}
}

/* Runs the n configurations c[] over one synthetic stream; e[i] gets
 * E_net of c[i]. */
static void
run_many(struct pmr_mhash_cfg *c, size_t n, const char *spec, double *e)
{
	struct pmr_mhash *m[16], *x;
	struct pmr_mhash_cfg xc = c[0];
	struct pmr_mhash_synth syn;
	struct pmr_mhash_enet agg[16];
	struct pmr_mhash_err err;
	const struct pmr_mhash_cand *r;
	const char *bad;
	uint64_t pc, v;
	size_t i, nr;
	int d = 0;

	pmr_mhash_synth_init(&syn, 0);
	CHECK_EQ(pmr_mhash_synth_parse(&syn, spec, &bad), 0);
	xc.algo = PMR_MHASH_EXACT;
	x = mk(&xc);
	memset(agg, 0, sizeof(agg));
	for (i = 0; i < n; i++)
		if ((m[i] = mk(&c[i])) == NULL)
			return;
	while (pmr_mhash_synth_next(&syn, &pc, &v)) {
		for (i = 0; i < n; i++)
			d = pmr_mhash_add(m[i], pc, v);
		(void)pmr_mhash_add(x, pc, v);
		if (!d)
			continue;
		for (i = 0; i < n; i++) {
			r = pmr_mhash_result(m[i], &nr);
			pmr_mhash_eval(x, r, nr, &err, NULL, NULL);
			pmr_mhash_enet_add(&agg[i], &err, 0);
		}
	}
	for (i = 0; i < n; i++) {
		e[i] = pmr_mhash_enet(&agg[i], NULL);
		pmr_mhash_free(m[i]);
	}
	pmr_mhash_free(x);
}

/*
 * §5.3 relative ordering on streams shaped like value traces (tens of
 * candidates, distinct tuples ~40% of L): C1R0 is no worse than the other
 * C/R combinations; retaining helps a single hash; at 1M/0.1% sixteen
 * tables are worse than four.
 */
UNIT_TEST(paper_ordering)
{
	static const char spec10k[] = "n=1M,noise=1000000,hot=200,share=60";
	static const char spec1m[] = "n=3M,noise=3000000,hot=2000,share=60";
	struct pmr_mhash_cfg c[4];
	double e[4];
	int i;

	for (i = 0; i < 4; i++) {	/* C0R0 C1R0 C0R1 C1R1, N=4 P1 */
		pmr_mhash_cfg_init(&c[i]);
		c[i].cu = i & 1;
		c[i].reset = i >> 1;
	}
	run_many(c, 4, spec10k, e);
	printf("# N=4 C0R0 %.4f%% C1R0 %.4f%% C0R1 %.4f%% C1R1 %.4f%%\n",
	    100 * e[0], 100 * e[1], 100 * e[2], 100 * e[3]);
	CHECK(e[1] <= e[0] && e[1] <= e[2] && e[1] <= e[3]);
	CHECK(e[1] < 0.01);	/* paper-mh-10k: E_net under 1% */
	for (i = 0; i < 4; i++) {	/* single hash R0P0 R1P0 R0P1 R1P1 */
		pmr_mhash_cfg_init(&c[i]);
		c[i].tables = 1;
		c[i].cu = 0;
		c[i].reset = i & 1;
		c[i].retain = i >> 1;
	}
	run_many(c, 4, spec10k, e);
	printf("# N=1 R0P0 %.3f%% R1P0 %.3f%% R0P1 %.3f%% R1P1 %.3f%%\n",
	    100 * e[0], 100 * e[1], 100 * e[2], 100 * e[3]);
	CHECK(e[2] <= e[0] && e[3] <= e[1]);
	CHECK(e[3] <= e[0] && e[3] <= e[1] && e[3] <= e[2]);	/* BSH */
	for (i = 0; i < 2; i++) {
		pmr_mhash_cfg_init(&c[i]);
		CHECK_EQ(pmr_mhash_preset(&c[i], "paper-mh-1m"), 0);
		c[i].tables = i == 0 ? 4 : 16;
	}
	run_many(c, 2, spec1m, e);
	printf("# 1M/0.1%%: N=4 %.3f%% N=16 %.3f%%\n", 100 * e[0],
	    100 * e[1]);
	CHECK(e[1] > e[0]);
	CHECK(e[0] < 0.10);	/* paper-mh-1m: single-digit percent */
}

UNIT_TEST(churn)
{
	struct pmr_mhash_cand a[3] = { { 1, 1, 9 }, { 2, 2, 9 }, { 3, 3, 9 } };
	struct pmr_mhash_cand b[4] = { { 3, 3, 5 }, { 4, 4, 5 }, { 1, 1, 5 },
		{ 1, 2, 5 } };

	CHECK_NEAR(pmr_mhash_churn(a, 3, b, 4), 0.5, 1e-12);
	CHECK_NEAR(pmr_mhash_churn(b, 4, a, 3), 1.0 / 3, 1e-12);
	CHECK_NEAR(pmr_mhash_churn(a, 3, a, 3), 0, 1e-12);
	CHECK_NEAR(pmr_mhash_churn(a, 0, a, 3), 1, 1e-12);
	CHECK_NEAR(pmr_mhash_churn(a, 3, a, 0), 0, 1e-12);
}

UNIT_MAIN(UNIT_ENTRY(bswap64), UNIT_ENTRY(xor_fold),
    UNIT_ENTRY(randomize_identity), UNIT_ENTRY(index_matches_reference),
    UNIT_ENTRY(seed_determinism_and_independence),
    UNIT_ENTRY(structural_collision), UNIT_ENTRY(threshold),
    UNIT_ENTRY(cu_step), UNIT_ENTRY(worked_error_example),
    UNIT_ENTRY(golden_traces), UNIT_ENTRY(retaining),
    UNIT_ENTRY(victim_lowest), UNIT_ENTRY(inv_counters),
    UNIT_ENTRY(inv_no_fn_without_reset), UNIT_ENTRY(inv_ideal_hash_is_exact),
    UNIT_ENTRY(inv_retained_exact), UNIT_ENTRY(inv_deterministic),
    UNIT_ENTRY(paper_shape), UNIT_ENTRY(area), UNIT_ENTRY(cfg_errors),
    UNIT_ENTRY(mod_fallback), UNIT_ENTRY(baselines),
    UNIT_ENTRY(add_many_equivalent), UNIT_ENTRY(synth),
    UNIT_ENTRY(fp_bound), UNIT_ENTRY(fp_rate_within_bound),
    UNIT_ENTRY(paper_ordering), UNIT_ENTRY(churn))
