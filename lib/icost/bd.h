/*
 * bd.h: breakdowns (bd.c), their reading from streams (input.h) and
 * their reports (report.c), for cmd/icost.c.
 */
#ifndef PMR_ICOST_BD_H
#define PMR_ICOST_BD_H

#include <stdint.h>
#include <stdio.h>

#include "icost/icost.h"
#include "util/table.h"

/* The measured subsets of ncat categories from one source: sums of the
 * base time t and the idealized time ts, by subset mask. */
struct pmr_icost_bd {
	unsigned source;	/* PMR_COST_* */
	unsigned ncat;
	char names[PMR_ICOST_MAXCAT][64];
	uint64_t *t, *ts;	/* [1 << ncat] */
	uint8_t *have;		/* [1 << ncat] measured */
	uint64_t insns, frags;
	uint64_t digest;	/* the machine's config digest, 0 unknown */
};

int pmr_icost_bd_init(struct pmr_icost_bd *b, unsigned source,
    const char *const *names, unsigned ncat);
void pmr_icost_bd_free(struct pmr_icost_bd *b);
void pmr_icost_bd_add(struct pmr_icost_bd *b, uint32_t mask, uint64_t t,
    uint64_t ts);
size_t pmr_icost_bd_cats(const struct pmr_icost_bd *b, char *buf,
    size_t len);
/* 1 if every measured subset has the same base time (a common t: costs
 * and icosts are then exact integers of cycles). */
int pmr_icost_bd_exact(const struct pmr_icost_bd *b);
/* cost(m) / t, 0 if m was not measured. */
double pmr_icost_bd_frac(const struct pmr_icost_bd *b, uint32_t m);
/* icost(u) as a fraction of t and (if cyc) in cycles; returns 0 if a
 * subset of u was not measured. */
int pmr_icost_bd_icost(const struct pmr_icost_bd *b, uint32_t u,
    double *frac, int64_t *cyc);

/* The invariants of a breakdown (§2.3): on a graph, cost >= 0 and
 * monotone in the subset, but for the wrong path's line fetches (below);
 * always, cost(U) = sum of icost over U's subsets, exactly in cycles.
 *
 * A graph of a machine that fetches down wrong paths is not monotone in
 * bmisp: a line a wrong path brought (GNODE dd_wp) is a miss again once
 * there are no mispredicts, unless imiss is idealized as well.  So a
 * negative cost of a subset with a bmisp category and no imiss one, and
 * a subset whose cost falls when a bmisp category joins it while no
 * imiss one is in it, are counted apart (wp_*) when wp_ok.  bm and im
 * are the masks of the categories that idealize mispredicts, and of
 * those that idealize every instruction's I-side misses. */
struct pmr_icost_checks {
	unsigned subsets;	/* measured */
	unsigned negative;	/* cost < 0 (not wp_negative) */
	unsigned nonmono;	/* cost(S) > cost(S + one category) (not
				 * wp_nonmono) */
	unsigned wp_negative, wp_nonmono;	/* the same, of bmisp */
	/* the largest fall, as a fraction of t, of those counted in
	 * nonmono (worst_*) and in wp_nonmono (wp_worst_*): cost(sub) -
	 * cost(sub + cat) */
	double worst, wp_worst;
	uint32_t worst_sub, wp_worst_sub;
	unsigned worst_cat, wp_worst_cat;
	unsigned sums, badsum;	/* sums checked, sums off */
};
void pmr_icost_bd_check(const struct pmr_icost_bd *b, uint32_t bm,
    uint32_t im, int wp_ok, struct pmr_icost_checks *k);

/* Top-Down level 1 (Yasin, ISPASS 2014) over map slots, from the final
 * STATS of the base run(s): sums, so that streams add. */
struct pmr_icost_td {
	uint64_t runs;		/* final STATS records added */
	uint64_t slots, retired, mapped, fe, bad;
};

/* What the report shows. */
struct pmr_icost_view {
	enum pmr_table_fmt fmt;
	int focus;		/* category of the pair rows, -1 all */
	unsigned order;		/* highest order of rows shown */
	int bar;		/* a text stacked bar after the table */
	const char *title;	/* the first comment line, or NULL */
	const struct pmr_icost_td *td;	/* Top-Down beside it, or NULL */
};

/* Prints b's breakdown table (the paper's Table 4 shape) on f.  Returns
 * 0, or -1 if f could not be written. */
int pmr_icost_report(FILE *f, const struct pmr_icost_bd *b,
    const struct pmr_icost_view *v);

/* The rows --compare's mean relative errors are over. */
enum {
	PMR_ICOST_RULE_PAPER,	/* each error's reference >= thresh, signed */
	PMR_ICOST_RULE_MULTISIM	/* |multisim| >= thresh for every error */
};

/* Prints the comparison of two or three breakdowns of the same categories
 * (multisim, graph, shotgun: the paper's Table 7 shape) with the caption's
 * error metrics: each the mean over rows of |value - reference| /
 * |reference|, over the rows rule counts (percent of t). */
int pmr_icost_compare(FILE *f, const struct pmr_icost_bd *const *b,
    unsigned n, const struct pmr_icost_view *v, double thresh, int rule);

#endif /* PMR_ICOST_BD_H */
