/*
 * calcrep.h: pmprof calc's reports over the analyses of calc.h: DCPI's
 * listing (SOSP '97 Fig. 2), procedure summary (Fig. 4), the worst
 * stalls, and the accuracy against TRUTH (§6.2, Figs. 8-9).
 */
#ifndef PMR_PROF_CALCREP_H
#define PMR_PROF_CALCREP_H

#include <stdio.h>

#include "prof/calc.h"

/* The annotated listing of one procedure, as text or TSV. */
void pmr_calc_report_list(FILE *f, const struct pmr_calc_proc *cp,
    const char *path, int tsv);
/* A summary (one procedure's, or --whatcg's) titled what. */
void pmr_calc_report_sum(FILE *f, const char *what,
    const struct pmr_calc_sum *s, int tsv);

#define PMR_CALC_NBUCKET 20	/* bucket k: [5 (k - 10), 5 (k - 9))% */

/* Accuracy against TRUTH, summed over procedures. */
struct pmr_calc_score {
	double w, w5, w10, w15;	/* samples; of instructions whose F P is
				 * within 5, 10, 15% of the retired count */
	double off15, off15_low;	/* off by more, of them low conf. */
	double ew, ew10;	/* edges: executions, within 10% */
	double tdyn, trecall;	/* TRUTH's dynamic head cycles, of them
				 * of a cause reported at the pc */
	double tstatic, tother, thead;
	double sdyn, s1, s12;	/* dynamic stall samples; of instructions
				 * with one cause, one or two */
	double unexpl, tallied;
	/* Figs. 8 and 9: the error F P / count - 1 in 5% buckets, [-45%,
	 * 45%) and a tail each side, weighted by samples and executions */
	double hi_insn[PMR_CALC_NBUCKET], hi_edge[PMR_CALC_NBUCKET];
};
void pmr_calc_score_add(struct pmr_calc_score *sc,
    const struct pmr_calc_proc *cp);
void pmr_calc_report_score(FILE *f, const char *label,
    const struct pmr_calc_score *sc, int header, int tsv);
/* The histograms of sc, a row a bucket (percent of the weight). */
void pmr_calc_report_hist(FILE *f, const char *label,
    const struct pmr_calc_score *sc, int header, int tsv);

/* The worst stalls of a scope. */
struct pmr_calc_top {
	uint64_t pc, culprit, load;
	char proc[64], text[96];
	double stall, samples, dyn_cy;
	unsigned st_cy, why, causes;
};
struct pmr_calc_tops {
	struct pmr_calc_top *v;
	size_t n, cap;
};
int pmr_calc_top_add(struct pmr_calc_tops *t,
    const struct pmr_calc_proc *cp) PMR_RESULT_USED;
void pmr_calc_report_top(FILE *f, struct pmr_calc_tops *t, size_t n,
    int tsv);

#endif /* PMR_PROF_CALCREP_H */
