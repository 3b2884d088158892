/*
 * calc.h: DCPI's stall analysis (dcpicalc; Anderson et al., SOSP '97 §6),
 * the part that needs no machine: the execution frequency of a class of
 * instructions that must run equally often (a basic block, or blocks and
 * edges of one equivalence class), from their CYCLES samples S_i and their
 * minimum head-of-queue cycles M_i in a static schedule (§6.1.3).
 */
#ifndef PMR_PROF_CALC_H
#define PMR_PROF_CALC_H

#include <stddef.h>
#include <stdint.h>

#include "prof/prof.h"
#include "sim/sched.h"

/* Confidence of an estimate (§6.1: from the issue points used and how
 * tightly they cluster). */
enum pmr_calc_conf { PMR_CALC_NONE, PMR_CALC_LOW, PMR_CALC_MEDIUM,
	PMR_CALC_HIGH };

struct pmr_calc_freq {
	double f;		/* samples per execution-period: F = S / M */
	double f0;		/* the paper's cluster mean, before it is
				 * re-centred (0 if no cluster) */
	size_t used;		/* issue points in the cluster */
	size_t points;		/* issue points (M_i > 0) */
	enum pmr_calc_conf conf;
	int sparse;		/* from few samples: sum S / sum M */
};

/*
 * Estimates the class's frequency from the n instructions' samples S and
 * minimum cycles M (§6.1.3).  An issue point is an instruction with
 * M_i > 0; without a dynamic stall S_i / M_i is F, and stalls only raise
 * it, so F is the mean of the cluster of the smallest ratios (an issue
 * point without a sample, in a class with samples enough, is none: it
 * issued with the one before, as the schedule could not tell): the ratios
 * within a factor 1 + w of the smallest, w = max(0.1, 3 / sqrt(S)) of the
 * smallest ratio's samples S (three standard deviations of a Poisson count;
 * the paper's "e.g. 1.5x" is looser than its own worked example, whose
 * cluster this width reproduces).  With few samples (under 8 per issue
 * point) F is sum S / sum M over the class, low confidence (sparse);
 * else the
 * cluster is used when it holds at least a third of the issue points and
 * two of them (high confidence with half of them and a width of at most
 * 0.2, else medium), its mean then re-centred: the points within three
 * Poisson deviations of it give F = sum S / sum M, until it settles (the
 * cluster from the smallest ratio, which noise puts low, is low by half
 * a deviation); else F is the smallest ratio, low confidence.  Returns 0, or -1 if
 * there is no issue point (F comes from propagation then; *out has conf
 * NONE).
 */
int pmr_calc_class_freq(const double *S, const double *M, size_t n,
    struct pmr_calc_freq *out);

/* --- one procedure's analysis (dcpicalc.c; SOSP '97 §6) ---------------- */

/* Dynamic stall causes (§6.3), bit c of pmr_calc_insn causes. */
enum pmr_calc_cause {
	PMR_CALC_ICACHE, PMR_CALC_ITLB, PMR_CALC_DCACHE, PMR_CALC_DTLB,
	PMR_CALC_MISP, PMR_CALC_WBUF, PMR_CALC_FU, PMR_CALC_NCAUSE
};
/* Their letters in the listing, and names. */
extern const char pmr_calc_letter[PMR_CALC_NCAUSE + 1];
extern const char *const pmr_calc_cause_name[PMR_CALC_NCAUSE];

/* TRUTH's split of head_cycles (pmr 1.6, enum pmr_sim_hd's order),
 * "truth:hd:NAME" events. */
enum pmr_calc_truth {
	PMR_CALC_T_ISSUE, PMR_CALC_T_STATIC, PMR_CALC_T_ICACHE,
	PMR_CALC_T_ITLB, PMR_CALC_T_DCACHE, PMR_CALC_T_DTLB, PMR_CALC_T_MISP,
	PMR_CALC_T_WBUF, PMR_CALC_T_FU, PMR_CALC_T_OTHER, PMR_CALC_NTRUTH
};
extern const char *const pmr_calc_truth_name[PMR_CALC_NTRUTH];

/* What the analysis reads. */
struct pmr_calc_opts {
	const struct pmr_sim_config *cfg;	/* the in-order machine */
	long run;		/* the run to analyse, -1 all summed */
	double period;		/* P: cycles per sample of those runs */
	long ev_s;		/* event of the CYCLES samples */
	long ev_ret, ev_taken, ev_head;	/* truth events, -1 none */
	long ev_hd[PMR_CALC_NTRUTH];
	int itlb_fits;		/* the sampled code's pages fit the ITLB:
				 * no ITLB stalls but the first */
	/* the profile's instruction rows (pmr_prof_group BY_INSN, per run,
	 * every pc), if the caller has them: NULL, pmr_calc_proc groups
	 * the procedure's own (which ends the life of the caller's rows) */
	const struct pmr_prof_row *rows;
	size_t nrows;
};

struct pmr_calc_insn {
	uint64_t pc;
	unsigned len;		/* 0: not decoded */
	char text[96];
	struct pmr_sinsn si;
	uint32_t block;
	double S;		/* samples */
	struct pmr_sched sc;	/* M_i, static stall, why, culprit index */
	double F;		/* its block's frequency (executions / P), 0
				 * none */
	enum pmr_calc_conf conf;
	double dyn;		/* S - F M: dynamic stall samples, < 0 gain */
	unsigned causes;	/* bit c: cause c is possible */
	long dload;		/* the load blamed by d and D, -1 */
	/* TRUTH, summed over the runs: retired, taken, head cycles */
	double t_ret, t_taken, t_head, t_hd[PMR_CALC_NTRUTH];
};

#define PMR_CALC_NOWHERE UINT32_MAX	/* an edge's end outside */

struct pmr_calc_edge {
	uint32_t from, to;	/* blocks; NOWHERE: entry or exit */
	double F;		/* estimate, if known */
	int known;
	double truth;		/* executions, -1 unknown */
};

struct pmr_calc_block {
	uint32_t first, n;	/* instructions */
	uint32_t cls;		/* equivalence class (a block index) */
	double F;
	enum pmr_calc_conf conf;
	int known, propagated;
	int sparse;		/* F of low confidence, used if the flow
				 * gives none */
};

struct pmr_calc_proc {
	const char *name;
	size_t img;
	uint64_t lo, hi;
	struct pmr_calc_insn *in;
	size_t ni;
	struct pmr_calc_block *b;
	size_t nb;
	struct pmr_calc_edge *e;
	size_t ne;
	int missing;		/* an indirect jump or bad code: edges
				 * missing, one class per block */
	double P;
};

/*
 * Analyses the procedure name, [lo, hi) of image img, of profile p:
 * the CFG from its code, equivalence classes of blocks (a block and the
 * one it is control equivalent to: dominator and post-dominator of each
 * other in the same loops), each class's frequency from its issue points
 * (pmr_calc_class_freq over M_i of pmr_sim_sched), flow propagation,
 * then each instruction's CPI, static stall and possible dynamic causes.
 * Returns 0, or a PMR_E* code with a message in err.
 */
int pmr_calc_proc(struct pmr_prof *p, const struct pmr_calc_opts *o,
    const char *name, size_t img, uint64_t lo, uint64_t hi,
    struct pmr_calc_proc *out, char *err, size_t errlen) PMR_RESULT_USED;
void pmr_calc_proc_free(struct pmr_calc_proc *cp);

/*
 * Fig. 4's procedure summary, in samples: execution, static stalls by
 * kind, each dynamic cause's range [lo, hi], unexplained stall and
 * gain, samples of dual-issued instructions (net sampling error), and
 * the samples left out (no frequency).
 */
struct pmr_calc_sum {
	double samples;		/* all of the scope's */
	double tallied;		/* of instructions with a frequency */
	double best, actual;	/* sum F M, sum S (tallied) */
	double insns;		/* sum F (executions / P) */
	double exec;		/* sum F: an issue cycle each */
	double st[4];		/* static stall, sum F (M - 1), by enum
				 * pmr_sched_why */
	double lo[PMR_CALC_NCAUSE], hi[PMR_CALC_NCAUSE];
	double unexpl, gain;	/* gain <= 0 */
	double dynpos;		/* the explained stall, each once */
	double dual;		/* samples at M = 0 */
};
void pmr_calc_sum_add(struct pmr_calc_sum *sum,
    const struct pmr_calc_proc *cp);

#endif /* PMR_PROF_CALC_H */
