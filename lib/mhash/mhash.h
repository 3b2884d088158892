/*
 * mhash.h: the Multi-Hash interval profiler (Narayanasamy et al., HPCA-9
 * 2003), its exact reference, the paper's error metric, area accounting and
 * heavy-hitter baselines at equal bytes.  Section numbers below are the
 * paper's.
 *
 * A struct pmr_mhash is one profiler of one configuration: the multi-hash
 * model (N tables splitting H counters, conservative update, reset,
 * retaining, a shielding accumulator), a baseline (Space-Saving, Count-Min
 * with conservative update and a candidate store, Misra-Gries) or the exact
 * interval profiler.  Events go in one at a time; every L events the
 * profiler closes an interval and exposes its candidates (tuples whose
 * estimated count reached T) until the next event.  The library never
 * prints and never exits; errors come back as a message in a caller buffer.
 */
#ifndef PMR_MHASH_H
#define PMR_MHASH_H

#include <stddef.h>
#include <stdint.h>

#include "stream/pmr.h"

enum pmr_mhash_algo {
	PMR_MHASH_MH,		/* the paper's multi-hash (N = 1: single hash) */
	PMR_MHASH_SS,		/* Space-Saving, k entries */
	PMR_MHASH_CMCU,		/* Count-Min + CU + A-entry candidate store */
	PMR_MHASH_MG,		/* Misra-Gries, k counters */
	PMR_MHASH_EXACT		/* the perfect interval profiler */
};

enum pmr_mhash_hashfn {
	PMR_MHASH_HPAPER,	/* S-box per byte, flip, XOR, XOR-fold (paper §5.3) */
	PMR_MHASH_HTAB,		/* simple tabulation hashing, then fold */
	PMR_MHASH_HGIVEN,	/* indices supplied with each event */
	PMR_MHASH_HEXACT	/* ideal hash: one counter per tuple */
};

enum pmr_mhash_victim {
	PMR_MHASH_VLOWEST,	/* lowest count, ties to the lowest index */
	PMR_MHASH_VFIFO,	/* oldest insertion */
	PMR_MHASH_VLRU,		/* least recently hit */
	PMR_MHASH_VRANDOM	/* uniform among replaceable entries */
};

enum pmr_mhash_init {
	PMR_MHASH_IEST,		/* starting count = the minimum counter */
	PMR_MHASH_ITHRESH,	/* starting count = T */
	PMR_MHASH_IONE		/* starting count = 1 */
};

#define PMR_MHASH_MAXTABLES 64
#define PMR_MHASH_PPB 1000000000u	/* theta unit: parts per billion */

/*
 * A configuration.  Fill it with pmr_mhash_cfg_init() (the paper's best
 * multi-hash at 10K/1%), change fields, then call pmr_mhash_cfg_finish()
 * to check it and derive T, A, S and the baseline sizes.
 */
struct pmr_mhash_cfg {
	enum pmr_mhash_algo algo;
	uint64_t interval;	/* L, events per interval */
	uint64_t theta_ppb;	/* θ as parts per billion (1% = 10^7) */
	uint32_t entries;	/* H, total hash counters */
	uint32_t tables;	/* N, hash tables (Count-Min depth) */
	unsigned cbits;		/* counter width in bits, 1..32 */
	int cu;			/* conservative update (C1) */
	int reset;		/* immediate reset on promotion (R1) */
	int retain;		/* retaining at interval end (P1) */
	uint32_t acc;		/* A, accumulator entries; 0: floor(1/θ) */
	enum pmr_mhash_hashfn hash;
	int sbox_random;	/* non-bijective random S-boxes */
	enum pmr_mhash_victim victim;
	enum pmr_mhash_init acc_init;
	int reset_on_overflow;	/* reset counters when the accumulator is full */
	uint64_t seed;
	uint64_t bytes;		/* baseline budget; 0: the area of the MH config */
	int exact_bytes;	/* budget in honest 64-bit accounting, not paper */

	/* Derived by pmr_mhash_cfg_finish(). */
	uint64_t thresh;	/* T = ceil(θ·L) */
	uint32_t size;		/* S = H/N, counters per table (CM width) */
	uint32_t k;		/* SS / MG entries at the budget */
	uint64_t budget;	/* bytes given to a baseline */
};

/* Area in bytes of a configuration, paper §7. */
struct pmr_mhash_area {
	uint64_t hash_bytes;	/* H * ceil(cbits/8) */
	unsigned acc_entry_bits;	/* 64 + 64 + cbits + valid + replaceable */
	double acc_bytes;	/* A * acc_entry_bits / 8 */
	uint64_t paper_acc_bytes;	/* A * 10, the paper's ~10 B per entry */
	double total;		/* hash_bytes + acc_bytes */
	uint64_t paper_total;	/* hash_bytes + paper_acc_bytes */
	double algo_bytes;	/* bytes of the configured algorithm itself */
};

/* A candidate tuple and its (estimated or exact) count. */
struct pmr_mhash_cand {
	uint64_t pc, value;
	uint64_t count;
};

/* Counters of one interval (and, summed, of the whole run). */
struct pmr_mhash_stats {
	uint64_t events;	/* events seen */
	uint64_t hashed;	/* events that updated the hash tables */
	uint64_t shielded;	/* events counted in the accumulator only */
	uint64_t promotions;	/* accumulator insertions */
	uint64_t overflow;	/* promotions dropped: accumulator full */
	uint64_t evictions;	/* replaceable (retained) entries replaced */
	uint64_t evict_live;	/* ... that had hits in this interval */
	uint64_t evict_requal;	/* evicted tuples promoted again */
	uint64_t requalified;	/* retained entries that reached T again */
	uint64_t saturations;	/* counter increments stopped at the max */
	uint64_t resets;	/* immediate resets done */
	uint64_t tsum_min, tsum_max;	/* least and largest table sum at end */
	uint64_t distinct;	/* distinct tuples (exact profiler only) */
};

/* The error of one interval, eq. 1 of paper §5.5.1. */
struct pmr_mhash_err {
	uint64_t sum_fp;	/* Σ fp over U */
	uint64_t d_np, d_nn, d_fp, d_fn;	/* Σ |fp - fh| per class */
	uint32_t n_union, n_exact, n_hw;
	uint32_t n_ok, n_np, n_nn, n_fp, n_fn;
	double e, e_np, e_nn, e_fp, e_fn;	/* fractions, not clamped */
};

/* Classes of a tuple of U. */
enum pmr_mhash_class {
	PMR_MHASH_OK, PMR_MHASH_NP, PMR_MHASH_NN, PMR_MHASH_FP, PMR_MHASH_FN
};

/* One row of U for reports. */
struct pmr_mhash_row {
	uint64_t pc, value;
	uint64_t fh, fp;
	enum pmr_mhash_class cls;
};

/* The average of E over intervals (E_net) with its parts. */
struct pmr_mhash_enet {
	int empty_zero;		/* count intervals with U empty as E = 0 */
	int with_partial;	/* include the final partial interval */
	uint64_t intervals;	/* intervals averaged */
	uint64_t empty;		/* intervals with U empty (excluded unless
				 * empty_zero) */
	uint64_t partial;	/* partial intervals excluded */
	uint64_t n_fp, n_fn, n_np, n_nn, n_ok;	/* tuples, summed */
	double s_e, s_np, s_nn, s_fp, s_fn;	/* sums of fractions */
	double max_e;
};

struct pmr_mhash;

/* Sets c to the paper's best multi-hash, 10K/1%, seed 1. */
void pmr_mhash_cfg_init(struct pmr_mhash_cfg *c);
/*
 * Applies the preset name ("paper-mh-10k", "paper-mh-1m", "paper-bsh-10k",
 * "paper-bsh-1m" and the aliases "hpca03-1pct", "hpca03-01pct",
 * "hpca03-bsh-1pct", "hpca03-bsh-01pct") to c.  Returns 0, or -1 if the
 * name is unknown.
 */
int pmr_mhash_preset(struct pmr_mhash_cfg *c, const char *name);
/* Returns the preset names, NULL-terminated. */
const char *const *pmr_mhash_presets(void);
/*
 * Checks c and derives T, S, k and the budget.  Returns 0, or -1 with a
 * message in err (errlen bytes).
 */
int pmr_mhash_cfg_finish(struct pmr_mhash_cfg *c, char *err, size_t errlen);
/*
 * Parses a percentage such as "1", "0.1" or "12.5%" into parts per billion
 * of 1 (so "1" gives 10^7).  Returns 0, or -1 if s is not a number in
 * (0, 100] with at most 7 decimals.
 */
int pmr_mhash_parse_pct(const char *s, uint64_t *ppb);
/* Returns T = ceil(θ·L) for θ in parts per billion. */
uint64_t pmr_mhash_threshold(uint64_t interval, uint64_t theta_ppb);
/* Computes the paper's §7 area of c (finished) into *a. */
void pmr_mhash_area(const struct pmr_mhash_cfg *c, struct pmr_mhash_area *a);
/*
 * Expands the sweep name ("fig7", "fig10", "fig11", "fig12", "fig14",
 * "baselines") over base into out[0..max).  Every configuration keeps
 * base's L, θ, H, counter width, hash and seed.  Returns the number of
 * configurations, or -1 if the name is unknown.
 */
int pmr_mhash_sweep(const char *name, const struct pmr_mhash_cfg *base,
    struct pmr_mhash_cfg *out, size_t max);
/* Returns the sweep names, NULL-terminated. */
const char *const *pmr_mhash_sweeps(void);
/* Writes a short name of the (finished) configuration c into buf, such as
 * "mh-n4-c1r0p1", "ss-k714" or "cmcu-d4w512". */
void pmr_mhash_cfg_name(const struct pmr_mhash_cfg *c, char *buf,
    size_t len);
/* Returns the algorithm's short name ("mh", "ss", "cmcu", "mg", "exact"). */
const char *pmr_mhash_algo_name(enum pmr_mhash_algo a);
/* Parses an algorithm name; returns 0, or -1 if unknown. */
int pmr_mhash_algo_parse(const char *s, enum pmr_mhash_algo *a);

/*
 * Creates a profiler of the finished configuration c (copied).  Returns it,
 * or NULL with a message in err (out of memory).  Caller frees it with
 * pmr_mhash_free().
 */
struct pmr_mhash *pmr_mhash_new(const struct pmr_mhash_cfg *c, char *err,
    size_t errlen) PMR_RESULT_USED;
/* Frees m and everything it owns; NULL is allowed. */
void pmr_mhash_free(struct pmr_mhash *m);
/* Returns the configuration of m. */
const struct pmr_mhash_cfg *pmr_mhash_cfg(const struct pmr_mhash *m);

/*
 * Feeds the event (pc, value).  Returns 1 when it completes an interval:
 * pmr_mhash_result() then holds its candidates until the next call.
 * Returns 0 otherwise.
 */
int pmr_mhash_add(struct pmr_mhash *m, uint64_t pc, uint64_t value);
/*
 * Feeds the events (pc[i], value[i]) for i < n, stopping after one that
 * completes an interval.  Returns how many were consumed; *closed is 1 if
 * the last of them closed an interval (results as after pmr_mhash_add).
 * The same as calling pmr_mhash_add() on each, only faster.
 */
size_t pmr_mhash_add_many(struct pmr_mhash *m, const uint64_t *pc,
    const uint64_t *value, size_t n, int *closed);
/*
 * Feeds an event whose table indices are given (hash "given"): idx[i] is
 * the counter of table i, each < S.  Same return as pmr_mhash_add().
 */
int pmr_mhash_add_idx(struct pmr_mhash *m, uint64_t pc, uint64_t value,
    const uint32_t *idx);
/*
 * Closes the final partial interval if it has events.  Returns 1 if it did
 * (results as after pmr_mhash_add), 0 if there was nothing to close.
 */
int pmr_mhash_finish(struct pmr_mhash *m);
/*
 * Returns the candidates of the interval just closed, sorted by count
 * descending, then pc, then value; *n receives their number.  The array
 * belongs to m and is valid until the next add.
 */
const struct pmr_mhash_cand *pmr_mhash_result(const struct pmr_mhash *m,
    size_t *n);
/* Returns the index (from 0) of the interval just closed. */
uint64_t pmr_mhash_interval(const struct pmr_mhash *m);
/* Returns the events of the interval just closed; < L if partial. */
uint64_t pmr_mhash_ievents(const struct pmr_mhash *m);
/* Returns the counters of the interval just closed. */
const struct pmr_mhash_stats *pmr_mhash_istats(const struct pmr_mhash *m);
/* Returns the counters summed over all closed intervals. */
const struct pmr_mhash_stats *pmr_mhash_stats(const struct pmr_mhash *m);

/* Introspection, for tests and --stats. */
/* Computes the N table indices of (pc, value) into idx.  Returns N. */
unsigned pmr_mhash_index(const struct pmr_mhash *m, uint64_t pc,
    uint64_t value, uint32_t *idx);
/* Returns counter idx of table t of a multi-hash or Count-Min profiler. */
uint32_t pmr_mhash_counter(const struct pmr_mhash *m, unsigned t,
    uint32_t idx);
/* Returns the sum of the counters of table t right now. */
uint64_t pmr_mhash_table_sum(const struct pmr_mhash *m, unsigned t);
/*
 * Looks (pc, value) up in the accumulator (or the baseline's store).
 * Returns 1 and sets *count and *repl if present, else 0.
 */
int pmr_mhash_acc_find(const struct pmr_mhash *m, uint64_t pc,
    uint64_t value, uint64_t *count, int *repl);
/* Returns the number of valid accumulator entries and, in *nrepl, how many
 * of them are replaceable. */
uint32_t pmr_mhash_acc_used(const struct pmr_mhash *m, uint32_t *nrepl);
/*
 * Returns the exact count of (pc, value) in the current (or just closed)
 * interval of an exact profiler; 0 for other algorithms.
 */
uint64_t pmr_mhash_exact_count(const struct pmr_mhash *m, uint64_t pc,
    uint64_t value);

/*
 * Compares the hardware candidates hw[0..nhw) with the exact profiler ex
 * (just closed, same L and T) by eq. 1.  Fills *e; if rows is not NULL it
 * must hold nhw + the exact candidate count entries and receives U, sorted
 * by fp descending, then fh descending, pc, value; *nrows its length.
 */
void pmr_mhash_eval(const struct pmr_mhash *ex,
    const struct pmr_mhash_cand *hw, size_t nhw, struct pmr_mhash_err *e,
    struct pmr_mhash_row *rows, size_t *nrows);
/*
 * Computes eq. 1 from a list of U given directly (fp, fh, and whether each
 * tuple is a hardware candidate); T decides perfect membership.  Used by
 * pmr_mhash_eval and by tests.
 */
void pmr_mhash_err_rows(struct pmr_mhash_row *rows, size_t n, uint64_t t,
    struct pmr_mhash_err *e);
/* Adds one interval's error to the average; partial marks a final partial
 * interval. */
void pmr_mhash_enet_add(struct pmr_mhash_enet *a,
    const struct pmr_mhash_err *e, int partial);
/* Returns E_net (0 if no interval was averaged) and the parts in *parts
 * (np, nn, fp, fn), which may be NULL. */
double pmr_mhash_enet(const struct pmr_mhash_enet *a, double parts[4]);
/*
 * Returns the paper's bound on the false-positive probability of a tuple
 * (paper §6.2, Fig. 9): p = (100·N / (t·Z))^N for N tables sharing Z counters
 * at threshold t percent, assuming independent tables.  Values above 1
 * mean the bound says nothing.
 */
double pmr_mhash_fp_bound(unsigned n, double z, double t_pct);
/*
 * Returns the change of a candidate set between consecutive intervals,
 * |cur \ prev| / |cur| (our reading of Fig. 6): the share of this
 * interval's candidates that were not candidates in the previous one; 0
 * when cur is empty.  Neither list needs to be sorted.
 */
double pmr_mhash_churn(const struct pmr_mhash_cand *prev, size_t nprev,
    const struct pmr_mhash_cand *cur, size_t ncur);
/* Returns the class name ("ok", "NP", "NN", "FP", "FN"). */
const char *pmr_mhash_class_name(enum pmr_mhash_class c);

/* --- synthetic streams --------------------------------------------------- */

/*
 * A synthetic value-profile-like stream (mhash(1) --synth): a share of events
 * comes from nhot hot tuples with skewed weights (tuple j has weight about
 * ln(nhot/j)/nhot), the rest from a noise universe of nnoise tuples drawn
 * uniformly, and every phase events the hot set moves to new tuples.
 */
struct pmr_mhash_synth {
	uint64_t events;	/* length of the stream */
	uint32_t nhot;		/* hot tuples */
	uint32_t share;		/* percent of events that are hot */
	uint64_t nnoise;	/* noise universe */
	uint64_t phase;		/* events per phase; 0: no phase change */
	uint64_t newpid;	/* a new pid every newpid events; 0: pid 0 */
	uint64_t seed;
	uint64_t st, n;		/* state: generator, events drawn */
	uint32_t pid;		/* the pid of the event just drawn */
};

/* Sets s to its defaults (1M events, 40 hot at 60%, 4000 noise, no
 * phases) with seed. */
void pmr_mhash_synth_init(struct pmr_mhash_synth *s, uint64_t seed);
/*
 * Parses "n=1M,hot=40,share=60,noise=4000,phase=0,newpid=0,seed=1" (any
 * subset, any order) into s.  Returns 0, or -1 with the offending item in *bad.
 */
int pmr_mhash_synth_parse(struct pmr_mhash_synth *s, const char *spec,
    const char **bad);
/* Draws the next event (its pid in s->pid).  Returns 1, or 0 once
 * s->events were drawn. */
int pmr_mhash_synth_next(struct pmr_mhash_synth *s, uint64_t *pc,
    uint64_t *value);

/* --- the paper's hash, exposed for tests --------------------------------- */

/* Returns v with its bytes reversed. */
static inline uint64_t
pmr_mhash_bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}

/* Returns v cut into n-bit chunks, XORed together (n in 0..64; 0 gives 0). */
static inline uint64_t
pmr_mhash_xor_fold(uint64_t v, unsigned n)
{
	uint64_t m, r = 0;

	if (n == 0)
		return 0;
	if (n >= 64)
		return v;
	m = ((uint64_t)1 << n) - 1;
	while (v != 0) {
		r ^= v & m;
		v >>= n;
	}
	return r;
}

/* Returns x with each byte replaced by its entry in the S-box r. */
static inline uint64_t
pmr_mhash_randomize(uint64_t x, const uint8_t r[256])
{
	uint64_t y = 0;
	int b;

	for (b = 0; b < 8; b++)
		y |= (uint64_t)r[(x >> (8 * b)) & 0xff] << (8 * b);
	return y;
}

/* Returns the paper's 64-bit key before folding: flip(randomize(pc)) XOR
 * randomize(value). */
static inline uint64_t
pmr_mhash_paper_key(uint64_t pc, uint64_t value, const uint8_t r[256])
{
	return pmr_mhash_bswap64(pmr_mhash_randomize(pc, r)) ^
	    pmr_mhash_randomize(value, r);
}

/*
 * Performs one counter update on the n counters *c[i] (saturating at max):
 * with cu, only the counters equal to the minimum grow; otherwise all do.
 * Returns the new minimum; *sat counts increments stopped by saturation.
 */
static inline uint32_t
pmr_mhash_update(uint32_t *const *c, unsigned n, uint32_t max, int cu,
    uint64_t *sat)
{
	uint32_t m, v, ns = 0;
	unsigned i;

	/* Branch-free: which counters hold the minimum is data, and a
	 * mispredicted branch costs more than the arithmetic. */
	m = *c[0];
	for (i = 1; i < n; i++) {
		v = *c[i];
		m = v < m ? v : m;
	}
	if (cu) {
		if (m == max) {
			*sat += 1;
			return m;
		}
		for (i = 0; i < n; i++)
			*c[i] += *c[i] == m;
		return m + 1;
	}
	m = max;
	for (i = 0; i < n; i++) {
		v = *c[i];
		ns += v == max;
		v += v < max;
		*c[i] = v;
		m = v < m ? v : m;
	}
	*sat += ns;
	return m;
}

/* Returns the S-box of table t of m (paper hash), or NULL. */
const uint8_t *pmr_mhash_sbox(const struct pmr_mhash *m, unsigned t);

#endif /* PMR_MHASH_H */
