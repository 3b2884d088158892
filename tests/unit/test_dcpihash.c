/*
 * test_dcpihash.c: unit tests of DCPI's driver hash table model
 * (lib/mhash/dcpi.c) against spec/dcpi.md §5.4: conservation of the
 * counts over a grid of sizes, ways, policies and hashes (T9), the
 * eviction order of round robin and swap-to-front (T10), the reduction on
 * a loop and the misses of a many-PID stream (T11), and 6-way
 * swap-to-front against 4-way round robin on one replay (T12).
 */
#include <stdlib.h>
#include <string.h>

#include "mhash/dcpi.h"
#include "unit.h"

/* What the daemon received. */
struct daemon {
	uint64_t records, counted, calls, maxcall;
	struct pmr_dcpi_entry log[64];	/* the first entries, in order */
	size_t nlog;
};

static void
sink(void *arg, const struct pmr_dcpi_entry *e, size_t n)
{
	struct daemon *dm = arg;
	size_t i;

	dm->calls++;
	if (n > dm->maxcall)
		dm->maxcall = n;
	for (i = 0; i < n; i++) {
		dm->records++;
		dm->counted += e[i].count;
		if (dm->nlog < sizeof(dm->log) / sizeof(dm->log[0]))
			dm->log[dm->nlog++] = e[i];
	}
}

static struct pmr_dcpi *
mk(uint32_t entries, uint32_t ways, uint32_t overflow,
    enum pmr_dcpi_policy pol, enum pmr_dcpi_hashfn h, struct daemon *dm)
{
	struct pmr_dcpi_cfg c;
	char err[128];
	struct pmr_dcpi *d;

	pmr_dcpi_cfg_init(&c);
	c.entries = entries;
	c.ways = ways;
	c.overflow = overflow;
	c.policy = pol;
	c.hash = h;
	if (dm != NULL)
		memset(dm, 0, sizeof(*dm));
	if ((d = pmr_dcpi_new(&c, dm != NULL ? sink : NULL, dm, err,
	    sizeof(err))) == NULL)
		printf("# new: %s\n", err);
	return d;
}

/* A sample of a skewed stream: a loop body of hot pcs and a tail. */
static void
gen(uint64_t *st, unsigned nkeys, uint32_t *pid, uint64_t *pc, uint64_t *ev)
{
	uint64_t k = unit_rnd(st) % nkeys;

	k = unit_rnd(st) % (k + 1);
	*pid = (uint32_t)(k % 3);
	*pc = 0x120000000ull + 4 * k;
	*ev = k % 2;
}

UNIT_TEST(defaults)
{
	struct pmr_dcpi_cfg c;
	char err[128];

	pmr_dcpi_cfg_init(&c);
	CHECK_EQ(c.entries, 16384);
	CHECK_EQ(c.ways, 4);
	CHECK_EQ(c.overflow, 8192);
	CHECK_EQ(c.policy, PMR_DCPI_RR);
	/* §4.2: 512 KB of non-pageable memory per CPU */
	CHECK_EQ(pmr_dcpi_bytes(&c), 512 * 1024);
	CHECK_EQ(pmr_dcpi_cfg_check(&c, err, sizeof(err)), 0);
	c.ways = 6;
	CHECK_EQ(pmr_dcpi_cfg_check(&c, err, sizeof(err)), -1);
	CHECK(strstr(err, "multiple") != NULL);
	c.entries = 24576;
	CHECK_EQ(pmr_dcpi_cfg_check(&c, err, sizeof(err)), 0);
	c.ways = 0;
	CHECK_EQ(pmr_dcpi_cfg_check(&c, err, sizeof(err)), -1);
}

/* T9: Σ counts out = samples in, for every policy, size, associativity,
 * buffer size and hash. */
UNIT_TEST(t9_conservation)
{
	static const uint32_t buckets[] = { 1, 16, 256, 4096 };
	static const uint32_t ways[] = { 1, 2, 4, 6, 8 };
	static const uint32_t ovf[] = { 1, 7, 8192 };
	const struct pmr_dcpi_stats *s;
	struct daemon dm;
	struct pmr_dcpi *d;
	size_t bi, wi, oi, i;
	uint64_t st, pc, ev;
	uint32_t pid;
	int pol, h;

	for (bi = 0; bi < 4; bi++)
	for (wi = 0; wi < 5; wi++)
	for (oi = 0; oi < 3; oi++)
	for (pol = 0; pol < 2; pol++)
	for (h = 0; h < 2; h++) {
		d = mk(buckets[bi] * ways[wi], ways[wi], ovf[oi],
		    (enum pmr_dcpi_policy)pol, (enum pmr_dcpi_hashfn)h, &dm);
		CHECK(d != NULL);
		if (d == NULL)
			return;
		st = bi * 1000 + wi * 100 + oi * 10 + (uint64_t)pol * 2 +
		    (uint64_t)h;
		for (i = 0; i < 20000; i++) {
			gen(&st, 3000, &pid, &pc, &ev);
			pmr_dcpi_add(d, pid, pc, ev);
		}
		pmr_dcpi_finish(d);
		s = pmr_dcpi_stats(d);
		CHECK_EQ_U64(s->samples, 20000);
		CHECK_EQ_U64(dm.counted, 20000);
		CHECK_EQ_U64(s->counted, 20000);
		CHECK_EQ_U64(dm.records, s->records);
		CHECK_EQ_U64(s->records, s->evictions + s->flushed);
		/* every miss makes one entry, handed over once */
		CHECK_EQ_U64(s->records, s->misses);
		CHECK_EQ_U64(s->hits + s->misses, s->samples);
		CHECK(dm.maxcall <= ovf[oi]);
		CHECK_EQ_U64(s->handoffs, s->evictions / ovf[oi]);
		CHECK(s->flushed <= buckets[bi] * ways[wi]);
		/* a second flush finds nothing */
		pmr_dcpi_finish(d);
		CHECK_EQ_U64(dm.records, s->records);
		pmr_dcpi_free(d);
	}
}

/* Finds n pcs (pid 0, event 0) from start on, all in the bucket of start. */
static void
colliding(const struct pmr_dcpi *d, uint64_t start, uint64_t *pc, size_t n)
{
	uint32_t b = pmr_dcpi_bucket(d, 0, start, 0);
	uint64_t x;
	size_t k = 0;

	for (x = start; k < n; x += 4)
		if (pmr_dcpi_bucket(d, 0, x, 0) == b)
			pc[k++] = x;
}

/* T10, rr: five keys of one bucket are evicted in mod-4 order, and the
 * counter is the table's, so an eviction elsewhere moves it. */
UNIT_TEST(t10_round_robin)
{
	struct daemon dm;
	struct pmr_dcpi *d = mk(16384, 4, 8192, PMR_DCPI_RR, PMR_DCPI_HMIX,
	    &dm);
	uint64_t k[5], o[5];
	size_t i;

	if (d == NULL) {
		CHECK(0);
		return;
	}
	colliding(d, 0x1000, k, 5);
	for (i = 0; i < 4; i++)
		CHECK_EQ(pmr_dcpi_add(d, 0, k[i], 0), 0);
	CHECK_EQ_U64(pmr_dcpi_stats(d)->evictions, 0);	/* empty ways */
	CHECK_EQ(pmr_dcpi_add(d, 0, k[0], 0), 1);	/* a hit */
	CHECK_EQ(pmr_dcpi_way(d, pmr_dcpi_bucket(d, 0, k[0], 0), 0)->count,
	    2);
	/* E evicts way 0 (A), then A way 1 (B), B way 2 (C), C way 3 (D),
	 * D way 0 (E): the keys go out in mod-4 order */
	pmr_dcpi_add(d, 0, k[4], 0);
	pmr_dcpi_add(d, 0, k[0], 0);
	pmr_dcpi_add(d, 0, k[1], 0);
	pmr_dcpi_add(d, 0, k[2], 0);
	pmr_dcpi_add(d, 0, k[3], 0);
	pmr_dcpi_finish(d);
	CHECK_EQ_U64(pmr_dcpi_stats(d)->evictions, 5);
	CHECK_EQ_U64(dm.log[0].pc, k[0]);
	CHECK_EQ_U64(dm.log[0].count, 2);
	CHECK_EQ_U64(dm.log[1].pc, k[1]);
	CHECK_EQ_U64(dm.log[2].pc, k[2]);
	CHECK_EQ_U64(dm.log[3].pc, k[3]);
	CHECK_EQ_U64(dm.log[4].pc, k[4]);
	CHECK_EQ_U64(dm.records, 9);	/* 5 evicted + 4 flushed */
	pmr_dcpi_free(d);

	/* one counter a table: after 1 eviction in the bucket of k (the
	 * counter at 1), one in the bucket of o (way 1, counter at 2),
	 * the next in k's bucket takes way 2 */
	d = mk(16384, 4, 8192, PMR_DCPI_RR, PMR_DCPI_HMIX, &dm);
	if (d == NULL) {
		CHECK(0);
		return;
	}
	colliding(d, 0x1000, k, 5);
	for (i = 0; i < 5; i++)
		o[i] = 0;
	for (i = 0; o[4] == 0; i++) {
		colliding(d, 0x900000 + 0x1000 * i, o, 5);
		if (pmr_dcpi_bucket(d, 0, o[0], 0) ==
		    pmr_dcpi_bucket(d, 0, k[0], 0))
			o[4] = 0;
	}
	for (i = 0; i < 5; i++)
		pmr_dcpi_add(d, 0, k[i], 0);	/* evicts k[0], way 0 */
	for (i = 0; i < 5; i++)
		pmr_dcpi_add(d, 0, o[i], 0);	/* evicts o[1], way 1 */
	pmr_dcpi_add(d, 0, k[0], 0);		/* evicts k[2], way 2 */
	CHECK_EQ_U64(dm.nlog, 0);
	pmr_dcpi_finish(d);
	CHECK_EQ_U64(dm.log[0].pc, k[0]);
	CHECK_EQ_U64(dm.log[1].pc, o[1]);
	CHECK_EQ_U64(dm.log[2].pc, k[2]);
	pmr_dcpi_free(d);
}

/* T10, swap-front: new keys enter at the front, a hit swaps to the front,
 * and a miss evicts the key hit least recently. */
UNIT_TEST(t10_swap_front)
{
	struct daemon dm;
	struct pmr_dcpi *d = mk(16384, 4, 8192, PMR_DCPI_SWAPFRONT,
	    PMR_DCPI_HMIX, &dm);
	uint64_t k[6];
	uint32_t b;
	size_t i;

	if (d == NULL) {
		CHECK(0);
		return;
	}
	colliding(d, 0x1000, k, 6);
	b = pmr_dcpi_bucket(d, 0, k[0], 0);
	for (i = 0; i < 4; i++)		/* [D C B A] */
		pmr_dcpi_add(d, 0, k[i], 0);
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 0)->pc, k[3]);
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 3)->pc, k[0]);
	pmr_dcpi_add(d, 0, k[0], 0);	/* [A C B D] */
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 0)->pc, k[0]);
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 3)->pc, k[3]);
	pmr_dcpi_add(d, 0, k[1], 0);	/* [B C A D] */
	pmr_dcpi_add(d, 0, k[2], 0);	/* [C B A D] */
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 0)->pc, k[2]);
	pmr_dcpi_add(d, 0, k[4], 0);	/* D, never hit, goes: [E C B A] */
	CHECK_EQ_U64(dm.nlog, 0);
	CHECK_EQ_U64(pmr_dcpi_stats(d)->evictions, 1);
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 0)->pc, k[4]);
	CHECK_EQ_U64(pmr_dcpi_way(d, b, 3)->pc, k[0]);
	pmr_dcpi_add(d, 0, k[5], 0);	/* A, hit before B and C, goes */
	pmr_dcpi_finish(d);
	CHECK_EQ_U64(dm.log[0].pc, k[3]);
	CHECK_EQ_U64(dm.log[0].count, 1);
	CHECK_EQ_U64(dm.log[1].pc, k[0]);
	CHECK_EQ_U64(dm.log[1].count, 2);
	pmr_dcpi_free(d);
}

/* Overflow buffers: a full one is handed over at once, in eviction order. */
UNIT_TEST(handoffs)
{
	struct daemon dm;
	struct pmr_dcpi *d = mk(1, 1, 3, PMR_DCPI_RR, PMR_DCPI_HXOR, &dm);
	uint64_t i;

	if (d == NULL) {
		CHECK(0);
		return;
	}
	for (i = 0; i < 11; i++)	/* 10 evictions: 3 full buffers */
		pmr_dcpi_add(d, 0, 4 * i, 0);
	CHECK_EQ_U64(dm.calls, 3);
	CHECK_EQ_U64(pmr_dcpi_stats(d)->handoffs, 3);
	for (i = 0; i < 9; i++)
		CHECK_EQ_U64(dm.log[i].pc, 4 * i);
	pmr_dcpi_finish(d);		/* the partial buffer, the table */
	CHECK_EQ_U64(dm.records, 11);
	CHECK_EQ_U64(dm.log[9].pc, 36);
	CHECK_EQ_U64(dm.log[10].pc, 40);
	CHECK_EQ_U64(pmr_dcpi_stats(d)->flushed, 1);
	pmr_dcpi_free(d);
}

/* T11: a loop aggregates ≥ 20× with < 2% misses; a new PID every 1000
 * samples misses at tens of percent (gcc in Table 4: 38–44.5%). */
UNIT_TEST(t11_reduction)
{
	const struct pmr_dcpi_stats *s;
	struct pmr_dcpi *d = mk(16384, 4, 8192, PMR_DCPI_RR, PMR_DCPI_HMIX,
	    NULL);
	uint64_t st = 11, i, pc, ev;
	uint32_t pid;

	if (d == NULL) {
		CHECK(0);
		return;
	}
	for (i = 0; i < 200000; i++) {
		gen(&st, 2000, &pid, &pc, &ev);
		pmr_dcpi_add(d, pid, pc, ev);
	}
	pmr_dcpi_finish(d);
	s = pmr_dcpi_stats(d);
	CHECK(s->samples >= 20 * s->records);
	CHECK(s->misses * 50 < s->samples);
	pmr_dcpi_free(d);

	d = mk(16384, 4, 8192, PMR_DCPI_RR, PMR_DCPI_HMIX, NULL);
	if (d == NULL) {
		CHECK(0);
		return;
	}
	for (i = 0; i < 200000; i++) {
		gen(&st, 2000, &pid, &pc, &ev);
		pmr_dcpi_add(d, (uint32_t)(i / 1000), pc, ev);
	}
	pmr_dcpi_finish(d);
	s = pmr_dcpi_stats(d);
	printf("# a new pid every 1000 samples: %" PRIu64 " misses of %"
	    PRIu64 "\n", s->misses, s->samples);
	CHECK(s->misses * 10 > s->samples);
	CHECK(s->misses * 10 < s->samples * 9);
	pmr_dcpi_free(d);
}

/* T12: on one replay that strains the table, 6-way swap-to-front (the
 * same lines holding 6 entries) misses no more than 4-way round robin. */
UNIT_TEST(t12_six_way_swap_front)
{
	static const unsigned nkeys[] = { 3000, 8000, 30000 };
	uint64_t miss[2], st, pc, ev, i;
	uint32_t pid;
	struct pmr_dcpi *d[2];
	size_t j, t;

	for (j = 0; j < 3; j++) {
		d[0] = mk(1024 * 4, 4, 8192, PMR_DCPI_RR, PMR_DCPI_HMIX,
		    NULL);
		d[1] = mk(1024 * 6, 6, 8192, PMR_DCPI_SWAPFRONT,
		    PMR_DCPI_HMIX, NULL);
		if (d[0] == NULL || d[1] == NULL) {
			CHECK(0);
			return;
		}
		st = 7 + j;
		for (i = 0; i < 300000; i++) {
			gen(&st, nkeys[j], &pid, &pc, &ev);
			for (t = 0; t < 2; t++)
				pmr_dcpi_add(d[t], pid, pc, ev);
		}
		for (t = 0; t < 2; t++) {
			miss[t] = pmr_dcpi_stats(d[t])->misses;
			pmr_dcpi_free(d[t]);
		}
		printf("# %u keys: 4-way rr %" PRIu64 " misses, 6-way "
		    "swap-front %" PRIu64 "\n", nkeys[j], miss[0], miss[1]);
		CHECK(miss[1] <= miss[0]);
	}
}

UNIT_MAIN(UNIT_ENTRY(defaults), UNIT_ENTRY(t9_conservation),
    UNIT_ENTRY(t10_round_robin), UNIT_ENTRY(t10_swap_front),
    UNIT_ENTRY(handoffs), UNIT_ENTRY(t11_reduction),
    UNIT_ENTRY(t12_six_way_swap_front))
