/*
 * test_prof.c: unit tests of pmprof's model (lib/prof/prof.c): the TIP
 * paper's error on hand-worked vectors, the exact noise floor against
 * direct sums of binomial probabilities and against draws, and the counts
 * of a profile grouped per instruction and per image.
 */
#include <math.h>

#include "prof/prof.h"
#include "unit.h"

UNIT_TEST(error)
{
	const double e1[2] = { 1, 1 }, t1[2] = { 1, 3 };
	const double e2[3] = { 2, 0, 0 }, t2[3] = { 0, 5, 5 };
	const double e3[2] = { 10, 30 }, t3[2] = { 1, 3 };
	const double z[2] = { 0, 0 };

	/* |1/2 - 1/4| + |1/2 - 3/4| */
	CHECK_NEAR(pmr_prof_error(e1, t1, 2), 0.5, 1e-12);
	/* disjoint: 2 */
	CHECK_NEAR(pmr_prof_error(e2, t2, 3), 2.0, 1e-12);
	/* scaled to the truth's total: exact */
	CHECK_NEAR(pmr_prof_error(e3, t3, 2), 0.0, 1e-12);
	CHECK(isnan(pmr_prof_error(z, t1, 2)));
	CHECK(isnan(pmr_prof_error(e1, z, 2)));
}

/* E|X - mp| of a binomial(m, p) by direct summation. */
static double
mad_direct(unsigned m, double p)
{
	double s = 0, c = 1;	/* C(m, k) */
	unsigned k;

	for (k = 0; k <= m; k++) {
		s += c * pow(p, k) * pow(1 - p, m - k) * fabs(k - m * p);
		c = c * (m - k) / (k + 1);
	}
	return s;
}

UNIT_TEST(floor_exact)
{
	const double t[3] = { 1, 2, 7 };
	unsigned m;

	/* the floor is the sum of the groups' mean deviations over m */
	for (m = 1; m <= 40; m += 13) {
		double want = (mad_direct(m, 0.1) + mad_direct(m, 0.2) +
		    mad_direct(m, 0.7)) / m;

		CHECK_NEAR(pmr_prof_floor(t, 3, m), want, 1e-9);
	}
	/* one group: a sample cannot miss */
	CHECK_NEAR(pmr_prof_floor(t + 2, 1, 100), 0.0, 1e-12);
	CHECK(isnan(pmr_prof_floor(t, 3, 0)));
}

UNIT_TEST(floor_draws)
{
	/* 50 groups of unequal weight, 2000 samples: the mean error of 400
	 * multinomial draws is within 2% of the exact floor */
	double t[50], cum[50], cnt[50], C = 0, sum = 0, f;
	uint64_t x = 7;
	unsigned i, r, j;

	for (i = 0; i < 50; i++)
		cum[i] = C += t[i] = 1 + (i * 37) % 11;
	for (r = 0; r < 400; r++) {
		memset(cnt, 0, sizeof(cnt));
		for (j = 0; j < 2000; j++) {
			double u = (double)(unit_rnd(&x) >> 11) * 0x1p-53 * C;

			for (i = 0; i < 49 && cum[i] <= u; i++)
				;
			cnt[i]++;
		}
		sum += pmr_prof_error(cnt, t, 50);
	}
	f = pmr_prof_floor(t, 50, 2000);
	CHECK_NEAR(sum / 400, f, 0.02 * f);
}

UNIT_TEST(group)
{
	struct pmr_prof *p = pmr_prof_new(NULL);
	struct pmr_prof_row *rows;
	struct pmr_image im;
	size_t n;
	long k;

	CHECK(p != NULL);
	CHECK_EQ(pmr_prof_begin_run(p, "a"), 0);
	memset(&im, 0, sizeof(im));
	im.start = 0x1000;
	im.size = 0x1000;
	im.path.p = (const unsigned char *)"/nonexistent/a.out";
	im.path.n = 18;
	CHECK_EQ(pmr_prof_image(p, &im), 0);
	CHECK_EQ(pmr_prof_count(p, "tip", 0x1010, 3), 0);
	CHECK_EQ(pmr_prof_count(p, "tip", 0x1010, 2), 0);
	CHECK_EQ(pmr_prof_count(p, "tip", 0x1020, 1), 0);
	CHECK_EQ(pmr_prof_count(p, "tip", 0x9000, 4), 0);	/* no image */
	CHECK_EQ(pmr_prof_count(p, "truth:cycles", 0x1010, 7.5), 0);
	CHECK_EQ(pmr_prof_nsamples(p), 10);
	k = pmr_prof_event_find(p, "tip");
	CHECK_EQ(k, 0);
	CHECK_EQ(pmr_prof_evkind(p, 1), PMR_PROF_EV_TRUTH);
	CHECK_EQ(pmr_prof_group(p, PMR_PROF_BY_INSN, 0, 0, UINT64_MAX, &rows,
	    &n, NULL), 0);
	CHECK_EQ(n, 3);
	CHECK_EQ_U64(rows[0].lo, 0x1010);
	CHECK_NEAR(rows[0].v[0], 5, 0);
	CHECK_NEAR(rows[0].v[1], 7.5, 0);
	CHECK_EQ(rows[2].img, -1);
	/* per image: the unknown pcs last; no symbols, no name */
	CHECK_EQ(pmr_prof_group(p, PMR_PROF_BY_PROC, 0, 0, UINT64_MAX, &rows,
	    &n, NULL), 0);
	CHECK_EQ(n, 2);
	CHECK(rows[0].proc == NULL);
	CHECK_NEAR(rows[0].v[0], 6, 0);
	CHECK_EQ(rows[1].img, -1);
	CHECK_NEAR(rows[1].v[0], 4, 0);
	/* a second run stays apart per run */
	CHECK_EQ(pmr_prof_begin_run(p, "b"), 0);
	CHECK_EQ(pmr_prof_count(p, "tip", 0x1010, 1), 0);
	CHECK_EQ(pmr_prof_group(p, PMR_PROF_BY_IMAGE, 1, 0, UINT64_MAX, &rows,
	    &n, NULL), 0);
	CHECK_EQ(n, 2);
	CHECK_NEAR(rows[0].v[0], 6, 0);
	CHECK_NEAR(rows[0].v[2 + 0], 1, 0);
	pmr_prof_free(p);
}

UNIT_MAIN(
	UNIT_ENTRY(error),
	UNIT_ENTRY(floor_exact),
	UNIT_ENTRY(floor_draws),
	UNIT_ENTRY(group)
)
