/*
 * top.h: the static instructions that cost most (icost --top): a table of
 * pcs with the gain bound of their instances (pmr_icost_graph_gain), the
 * choice of which to measure next, their measured cost and icost with a
 * partner category, and the report, for cmd/icost.c and input.c.
 *
 * The bound lets the ranking be exact without measuring every pc: once
 * the K-th largest measured cost is at least the largest bound of a pc not
 * measured, no unmeasured pc can enter the top K (Fields et al., MICRO-36,
 * §6: icost "can even point to the static instructions involved").
 */
#ifndef PMR_ICOST_TOP_H
#define PMR_ICOST_TOP_H

#include <stdint.h>
#include <stdio.h>

#include "util/table.h"

struct pmr_icost_top;

struct pmr_icost_top_row {
	uint64_t pc;
	unsigned cls;		/* operation class of its last instance */
	uint64_t execs;		/* instances (GNODE records) */
	int64_t bound;		/* sum of the instances' gain bounds */
	int measured;
	int64_t cost;		/* t - t(this pc idealized) */
	int64_t icost;		/* icost(this pc, partner), if a partner */
};

/* Returns a new table, or NULL (out of memory). */
struct pmr_icost_top *pmr_icost_top_new(void);
void pmr_icost_top_free(struct pmr_icost_top *t);
/* Adds an instance of pc: cur its gain bound, prev the bound that belongs
 * to the instance added before it (0 at a fragment's first node).
 * Returns 0 or PMR_ENOMEM. */
int pmr_icost_top_node(struct pmr_icost_top *t, uint64_t pc, unsigned cls,
    int64_t cur, int64_t prev);
/* A new fragment: no prev for its first node. */
void pmr_icost_top_restart(struct pmr_icost_top *t);
/*
 * Puts in pcs up to max pcs to measure next: unmeasured, the largest
 * bounds first, bound above 0 and above floor (the K-th measured cost so
 * far, -1 if fewer than K are measured).  Returns how many.
 */
unsigned pmr_icost_top_next(const struct pmr_icost_top *t, unsigned k,
    uint64_t *pcs, unsigned max);
/* Records the measured cost and icost of pc; returns 0 if the cost is
 * above pc's bound (*bound), which the theory excludes. */
int pmr_icost_top_set(struct pmr_icost_top *t, uint64_t pc, int64_t cost,
    int64_t icost, int64_t *bound);
/* The counts for the report's heading. */
void pmr_icost_top_counts(const struct pmr_icost_top *t, uint64_t *pcs,
    uint64_t *bounded, uint64_t *measured);

/* What the report shows. */
struct pmr_icost_top_view {
	enum pmr_table_fmt fmt;
	unsigned k;		/* rows */
	const char *cat;	/* the category idealized at each pc */
	const char *with;	/* the partner category, NULL none */
	int64_t t;		/* base time, cycles */
	unsigned passes;	/* graph passes that measured */
	/* the procedure holding pc, or NULL */
	const char *(*proc)(uint64_t pc, void *arg);
	void *arg;
	const char *note;	/* a comment line under the heading, or NULL */
};

/* Prints the K measured pcs of largest cost; returns 0, or -1 if f could
 * not be written. */
int pmr_icost_top_report(FILE *f, const struct pmr_icost_top *t,
    const struct pmr_icost_top_view *v);

#endif /* PMR_ICOST_TOP_H */
