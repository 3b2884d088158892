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

/* Confidence of an estimate (§6.1: from the issue points used and how
 * tightly they cluster). */
enum pmr_calc_conf { PMR_CALC_NONE, PMR_CALC_LOW, PMR_CALC_MEDIUM,
	PMR_CALC_HIGH };

struct pmr_calc_freq {
	double f;		/* samples per execution-period: F = S / M */
	size_t used;		/* issue points in the cluster */
	size_t points;		/* issue points (M_i > 0) */
	enum pmr_calc_conf conf;
};

/*
 * Estimates the class's frequency from the n instructions' samples S and
 * minimum cycles M (§6.1.3).  An issue point is an instruction with
 * M_i > 0; without a dynamic stall S_i / M_i is F, and stalls only raise
 * it, so F is the mean of the cluster of the smallest ratios: the ratios
 * within a factor 1 + w of the smallest, w = max(0.1, 3 / sqrt(S)) of the
 * smallest ratio's samples S (three standard deviations of a Poisson count;
 * the paper's "e.g. 1.5x" is looser than its own worked example, whose
 * cluster this width reproduces).  With few samples (under 8 per issue
 * point) F is sum S / sum M over the class, low confidence; else the
 * cluster is used when it holds at least a third of the issue points and
 * two of them (high confidence with half of them and a width of at most
 * 0.2, else medium); else F is the smallest ratio, low confidence.  Returns 0, or -1 if
 * there is no issue point (F comes from propagation then; *out has conf
 * NONE).
 */
int pmr_calc_class_freq(const double *S, const double *M, size_t n,
    struct pmr_calc_freq *out);

#endif /* PMR_PROF_CALC_H */
