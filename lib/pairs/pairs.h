/*
 * pairs.h: ProfileMe estimators (ProfileMe, Dean et al. MICRO-30, §5) for the
 * pairs program and its tests.
 *
 * A struct pmr_pairs accumulates SAMPLE, PAIR, TRUTH, STATS, META and METRIC
 * records into per-pc accumulators that are plain sums, so that shards
 * merge by addition: reading "cat shard1 shard2" or the METRIC records
 * written for each shard gives the same numbers as one run.  After the
 * input, pmr_pairs_finish() fixes the sampling scale (the effective interval
 * STATS.fetched / samples or pairs), and pmr_pairs_eval() turns the sums of a
 * row (one pc, one image, or everything) into an estimate with a
 * confidence interval and, when TRUTH records were read, the exact value.
 *
 * Metrics, formulas and interval methods are listed in man/pairs.1.  The
 * library never prints and never exits; functions return 0 or a negative
 * PMR_E* code with a message in pmr_pairs_errmsg().
 */
#ifndef PMR_PAIRS_H
#define PMR_PAIRS_H

#include <stdint.h>

#include "stream/pmr.h"
#include "sym/sym.h"

/* Record type of pairs' output (32-47: graphs, fragments, costs, metrics). */
#define PMR_REC_METRIC 40u

/* METRIC.kind */
#define PMR_PAIRS_MK_PC 0		/* the accumulators of one pc */
#define PMR_PAIRS_MK_GLOBAL 1	/* the sampling scale of the stream */
#define PMR_PAIRS_MK_PROF 2		/* one count of an address, edge or path
				 * profile: key a, acc = { tag, b, count } */

/* METRIC record, decoded form: struct pmr_pairs_metric_rec
 * (records/records.h). */

/* Latencies of a sample, in the order of the accumulators. */
enum {
	PMR_PAIRS_LAT_FM, PMR_PAIRS_LAT_MD, PMR_PAIRS_LAT_DX, PMR_PAIRS_LAT_XR,
	PMR_PAIRS_LAT_RR, PMR_PAIRS_LAT_LD, PMR_PAIRS_LAT_TOTAL, PMR_PAIRS_NLAT
};

/* Histogram buckets of a latency: 0..15 exactly, then one per power of 2. */
#define PMR_PAIRS_NB 44

/* How an aborted instance enters the in-progress latency L (ProfileMe
 * §5.2.3). */
enum pmr_pairs_abort_rule {
	PMR_PAIRS_ABORT_COUNT = 0,	/* (a): count F to abort (as TRUTH) */
	PMR_PAIRS_ABORT_ZERO	/* (b): contribute nothing */
};

enum pmr_pairs_by { PMR_PAIRS_BY_PC, PMR_PAIRS_BY_PROC, PMR_PAIRS_BY_IMAGE,
    PMR_PAIRS_BY_ALL,
	PMR_PAIRS_BY_CONTEXT	/* needs pmr_pairs_opts.by_context */
};

/*
 * Most bootstrap replicates: they are kept as B x 10 floats per pc with
 * pairs, 40 KB per pc at 1000 (the 23,000 pcs of cc1's 2 M instructions:
 * about 1 GB).
 */
#define PMR_PAIRS_BOOT_MAX 1000

struct pmr_pairs_opts {
	uint32_t window;	/* W; 0: from META profileme */
	uint32_t width;		/* issue width C; 0: from META issue-width */
	int nominal;		/* use the nominal S, not the effective one */
	enum pmr_pairs_abort_rule aborts;
	uint64_t pc_lo, pc_hi;	/* keep pcs in [pc_lo, pc_hi] */
	const char *sysroot;	/* IMAGE paths are looked up under it */
	const char *proc;	/* keep the pcs of this procedure only: its
				 * range, found in the symbols of the first
				 * IMAGE record's file that has it, becomes
				 * [pc_lo, pc_hi] (nothing is kept before) */
	uint32_t if_set;	/* keep samples with all these event bits */
	uint32_t if_clear;	/* ... and none of these; TRUTH is then unused */
	double confidence;	/* of the intervals, e.g. 0.95 */
	int keep_paths;		/* keep retired samples for pmr_pairs_rebuild() */
	uint32_t delta;		/* local IPC window; 0: META truth, else 15 */
	int occupancy;		/* accumulate the occ_ and fu_ sums */
	int by_context;		/* vectors per SAMPLE.context instead of per
				 * pc (TRUTH and per-pc METRIC unused) */
	uint32_t boot;		/* > 0: bootstrap intervals for the pair
				 * metrics, with this many replicates (at
				 * most PMR_PAIRS_BOOT_MAX) */
	uint64_t seed;		/* of the bootstrap weights */
};

/* Sampling description, filled while reading and by pmr_pairs_finish(). */
/* Single or paired sampling, as the input's records say. */
enum pmr_pairs_mode { PMR_PAIRS_UNKNOWN = 0, PMR_PAIRS_SINGLE,
	PMR_PAIRS_PAIRED };

struct pmr_pairs_info {
	int mode;		/* enum pmr_pairs_mode */
	uint64_t S;		/* nominal mean interval (META) */
	uint32_t W;		/* pair window */
	uint32_t C;		/* issue width */
	uint64_t fetched;	/* sum of final STATS.fetched */
	uint64_t nstats;	/* final STATS records read */
	uint64_t samples;	/* SAMPLE records used */
	uint64_t pairs;		/* PAIR records used */
	uint64_t other;		/* samples of a baseline sampler, ignored */
	uint64_t offpath, empty;  /* opportunity-mode slots */
	uint64_t ntruth;	/* TRUTH records read */
	uint64_t natruth;	/* ATRUTH counts kept (pc, line) */
	uint32_t abytes;	/* their largest line size */
	uint64_t npcs;		/* distinct pcs */
	uint64_t nimg;		/* IMAGE records */
	uint64_t warmup;	/* sum of final STATS.warmup */
	uint64_t retired;	/* sum of final STATS.retired */
	/* windowed IPC (ProfileMe §6) of the final STATS: the sums add over
	 * shards, max and min (over windows that retired something) are of
	 * them all; win_len 0 when absent or when shards differ */
	uint64_t win_len, win_n, win_zero, win_sum, win_sumsq, win_sumcube;
	uint64_t win_max, win_min;
	char machine[64];
	char digest[32];
	char sampler[160];	/* META profileme value */
	/* set by pmr_pairs_finish() */
	double S_eff;		/* the interval used: mean per sample or pair */
	double s;		/* scale of one sample: S_eff, or S_eff/2 paired */
	double z;		/* normal quantile of the confidence */
	uint32_t delta;		/* local IPC window, cycles */
	uint32_t tdelta;	/* delta of TRUTH local (META truth), 0 none */
};

/* One estimate. */
struct pmr_pairs_val {
	double est, lo, hi;	/* lo, hi NaN when there is no interval (a
				 * percentile; a ratio whose denominator is
				 * not clear of 0, see pairs(1)) */
	double exact;		/* NaN without TRUTH */
	double relerr;		/* est / exact - 1, NaN if undefined */
	uint64_t k;		/* samples carrying the property */
	int count;		/* 1: a count, whose error scales as 1/sqrt(k) */
	double scale;		/* count: executions per sample (est = scale k) */
};

/* One row of a report: an accumulator vector and its key. */
struct pmr_pairs_row {
	uint64_t key;		/* pc, image start, or 0 for all */
	const char *name;	/* image path, "all", or NULL for a pc */
	uint8_t cls;
	uint64_t *acc;		/* owned by the struct pmr_pairs */
	const float *boot;	/* bootstrap replicate sums, or NULL */
};

struct pmr_pairs;

/* Returns a new accumulator set, or NULL (out of memory).  Caller frees. */
struct pmr_pairs *pmr_pairs_new(const struct pmr_pairs_opts *o) PMR_RESULT_USED;
void pmr_pairs_free(struct pmr_pairs *p);
/* Returns the message of the last error. */
const char *pmr_pairs_errmsg(const struct pmr_pairs *p);

/*
 * Adds one record.  Returns 1 if the record was used, 0 if pairs has no
 * use for it (the caller may pass it through), or a negative code: a
 * record that does not decode, or a stream whose configuration differs
 * from the one read before.
 */
int pmr_pairs_add(struct pmr_pairs *p,
    const struct pmr_rec *rec) PMR_RESULT_USED;
/*
 * Ends the input: checks that there are samples, that W is known for
 * pairs, and computes the scale.  Returns 0 or a negative code.
 */
int pmr_pairs_finish(struct pmr_pairs *p) PMR_RESULT_USED;
/* Returns the sampling description (complete after pmr_pairs_finish()). */
const struct pmr_pairs_info *pmr_pairs_info(const struct pmr_pairs *p);

/*
 * Builds the rows of a report grouped by by, into *rows (count *n; the
 * array is owned by p and valid until the next call).  Rows without
 * samples are left out, except for PMR_PAIRS_BY_ALL.  PMR_PAIRS_BY_IMAGE and
 * PMR_PAIRS_BY_PROC need IMAGE records; PMR_PAIRS_BY_PROC reads the symbols of
 * the files they name (pcs without a symbol make a row for their image,
 * pcs outside every image the row "unknown").  Returns 0, or PMR_ENOMEM.
 * *note is set to a message when by could not be fully honoured (no IMAGE
 * records: rows by pc; an image without symbols), else NULL.
 */
int pmr_pairs_rows(struct pmr_pairs *p, enum pmr_pairs_by by,
    struct pmr_pairs_row **rows, size_t *n, const char **note) PMR_RESULT_USED;

/* Returns the event bit named name (as in pmr(5), SIMULATION RECORDS, lower
 * case: dcache_miss, retired, bad_path, ...), or 0 if unknown. */
uint32_t pmr_pairs_event_bit(const char *name);
/* Returns the latency named name (fm md dx xr rr ld total), or -1. */
int pmr_pairs_lat_find(const char *name);
/*
 * Copies the histogram of latency lat over the retired samples of row r
 * into counts (bucket b holds latencies from pmr_pairs_bucket_lo(b) up to the
 * next bucket's).  Returns the number of samples.
 */
uint64_t pmr_pairs_hist(const struct pmr_pairs_row *r, int lat,
    uint64_t counts[PMR_PAIRS_NB]);

/* Returns the number of metrics; metric ids run from 0. */
int pmr_pairs_nmetrics(void);
/* Returns the id of the metric named name, or -1. */
int pmr_pairs_metric_find(const char *name);
const char *pmr_pairs_metric_name(int m);
const char *pmr_pairs_metric_desc(int m);
/* Returns 1 if metric m needs paired samples. */
int pmr_pairs_metric_paired(int m);
/* Returns 1 if metric m needs pmr_pairs_opts.occupancy. */
int pmr_pairs_metric_occ(int m);
/* Returns the printf format suited to metric m's values in a table. */
const char *pmr_pairs_metric_fmt(int m);

/*
 * Evaluates metric m on row r into *v.  Returns 1, or 0 when the metric is
 * not available (no samples for it, or a paired metric without pairs).
 */
int pmr_pairs_eval(const struct pmr_pairs *p, const struct pmr_pairs_row *r,
    int m, struct pmr_pairs_val *v);

/*
 * Accuracy of one metric against TRUTH over a set of rows.  For a count,
 * a row is scored when its expected number of samples, lambda = exact /
 * scale, is at least min_k, and is inside the envelope 1 +- c/sqrt(lambda)
 * when |est/exact - 1| <= c/sqrt(lambda).  (Choosing rows by the observed
 * k instead favours rows whose count came out high, which biases the
 * fractions.)  Other metrics are scored on rows with k >= min_k.
 */
struct pmr_pairs_score {
	uint64_t n;		/* rows scored (exact value > 0) */
	uint64_t in1, in2;	/* counts: inside 1 +- 1/sqrt, 1 +- 2/sqrt */
	uint64_t covered;	/* exact value inside the interval */
	uint64_t noci;		/* rows printed without an interval */
	double med_abs;		/* median |relerr| */
};

/* Scores metric m over rows; counts-only fields are 0 for other metrics. */
int pmr_pairs_score(const struct pmr_pairs *p, const struct pmr_pairs_row *rows,
size_t n, int m, uint64_t min_k, struct pmr_pairs_score *sc) PMR_RESULT_USED;

/*
 * Writes the global METRIC record and one METRIC record per pc with
 * samples or truth to w.  Returns 0 or a negative code.
 */
int pmr_pairs_write(struct pmr_pairs *p, struct pmr_writer *w) PMR_RESULT_USED;

/*
 * Address, edge and path profiles (ProfileMe §5.1 data-address profiles, CFG
 * edges and indirect targets, path-qualified counts by history).  Their
 * counts are kept apart from the per-pc vectors, as sums over samples
 * (pair members included) that pass the --pc and --if filters.
 */
enum pmr_pairs_prof {
	PMR_PAIRS_PROF_PAGE,	/* retired load/store D-cache misses by page */
	PMR_PAIRS_PROF_SET,		/* ... by cache set */
	PMR_PAIRS_PROF_EDGE,	/* retired control transfers by (pc, target) */
	PMR_PAIRS_PROF_PATH,	/* samples by (pc, last bits of history) */
	PMR_PAIRS_PROF_PPATH,	/* second members of pairs that both retired
				 * by (pc, history bits, partner pc) */
	PMR_PAIRS_PROF_RPATH	/* retired samples by (pc, last bits of
				 * history): PATH comparable with the trace */
};

/* Geometry of --by=page and --by=set (alpha21264: 8 KB pages, 64 KB
 * 2-way 64-byte lines: 512 sets). */
struct pmr_pairs_geom {
	uint64_t page;		/* page size, a power of 2 */
	uint64_t size;		/* cache bytes */
	uint32_t ways, line;	/* associativity, line bytes (power of 2) */
};

/* One row of a profile. */
struct pmr_pairs_prow {
	uint64_t key;		/* page address, set index, or pc */
	uint64_t key2;		/* edge: target; path: history pattern */
	uint64_t key3;		/* ppath: pc of the earlier partner */
	int fallthru;		/* edge: the not-taken edge (key2 0) */
	uint64_t k;		/* samples in the row */
	uint64_t n;		/* samples of its group: all misses (page,
				 * set), retired samples of the branch pc
				 * (edge), samples of the pc with >= bits of
				 * history (path, ppath) */
	double est, lo, hi;	/* s k (ppath: W S k), Poisson score
				 * interval */
	double frac, flo, fhi;	/* k / n, Wilson interval */
	double exact;		/* edge, path: from the trace (pmr_pairs_rebuild());
				 * page, set: from ATRUTH records; else NaN */
};

/*
 * Builds the rows of profile what (geometry g for PAGE and SET, history
 * bits 1..64 for PATH) into *rows (count *n, owned by p, valid until the
 * next call).  Rows are sorted by key then, within a key, by k largest
 * first and key2.  Returns 0, or PMR_EINVAL for a bad geometry or bits,
 * or PMR_ENOMEM.
 */
int pmr_pairs_prof(struct pmr_pairs *p, enum pmr_pairs_prof what,
    const struct pmr_pairs_geom *g, unsigned bits, struct pmr_pairs_prow **rows,
    size_t *n) PMR_RESULT_USED;

/*
 * A retired sample (pair member) kept for path reconstruction when
 * pmr_pairs_opts.keep_paths is set: its commit index locates the true path in
 * the trace.
 */
struct pmr_pairs_psamp {
	uint64_t cpos;		/* commit index, from the trace start */
	uint64_t pc;
	uint64_t history;	/* global history at fetch, bit 0 newest */
	uint64_t partner;	/* second member of a pair that both retired:
				 * the pc of the first, else 0 */
	uint32_t dist;		/* d of that pair (fetches), else 0 */
	uint8_t hist_len;
	uint8_t has_partner;
};

/* Returns the kept samples (count *n), in input order; owned by p. */
const struct pmr_pairs_psamp *pmr_pairs_psamples(const struct pmr_pairs *p,
    size_t *n);

/*
 * Path reconstruction (ProfileMe §5.3, lib/pairs/path.c): outcome counts of one
 * scheme in one mode.  A reconstruction succeeds when it yields exactly
 * one path and that path is the true one.
 */
struct pmr_pairs_rb_count {
	uint64_t ok;		/* one path, the true one */
	uint64_t wrong;		/* one path, not the true one */
	uint64_t ambig;		/* several paths, or the bound was hit */
	uint64_t bound;		/* of those, the bound was hit */
	uint64_t none;		/* no path matches */
};

enum { PMR_PAIRS_RB_COUNTS, PMR_PAIRS_RB_HIST, PMR_PAIRS_RB_PAIR,
    PMR_PAIRS_RB_NSCHEME };
enum { PMR_PAIRS_RB_INTRA, PMR_PAIRS_RB_INTER, PMR_PAIRS_RB_NMODE };

struct pmr_pairs_rebuild {
	uint64_t insns;		/* trace instructions read */
	uint64_t nodes, edges;	/* CFG: distinct pcs, distinct transfers */
	uint64_t samples;	/* retired samples kept */
	uint64_t scored;	/* with a true path, scored below */
	uint64_t notrue;	/* true path not found (beyond the trace,
				 * longer than the bound) */
	uint64_t badpc;		/* the trace has another pc at cpos */
	uint64_t histbad;	/* true path's directions differ from the
				 * sampled history (intraprocedural) */
	uint64_t paired;	/* scored samples with a pair constraint */
	struct pmr_pairs_rb_count c[PMR_PAIRS_RB_NMODE][PMR_PAIRS_RB_NSCHEME];
};

/*
 * Reads the trace at path (any format of pmr_trace_open()), up to the end of
 * the measured region of the STATS records, builds its CFG and reconstructs the
 * path of every kept sample with each scheme, intra- and interprocedurally,
 * into *res.  When rows (n of them) of profile what (PMR_PAIRS_PROF_EDGE, or
 * PMR_PAIRS_PROF_RPATH with bits) are given, sets their exact field to the
 * count of the measured region of the trace.  Returns 0, or a negative code
 * with a message in err (errlen bytes).
 */
int pmr_pairs_rebuild_run(const struct pmr_pairs *p, const char *path,
enum pmr_pairs_prof what, unsigned bits, struct pmr_pairs_prow *rows, size_t n,
    struct pmr_pairs_rebuild *res, char *err, size_t errlen) PMR_RESULT_USED;

/* Returns the normal quantile z with P(|Z| <= z) = conf. */
double pmr_pairs_zquantile(double conf);
/* Returns the two-sided Student t quantile for conf and df >= 1. */
double pmr_pairs_tquantile(double conf, double df);
/* Sets *lo, *hi to the Wilson interval of k successes in n. */
void pmr_pairs_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);
/* Sets *lo, *hi to the Poisson score interval of a count k (unscaled). */
void pmr_pairs_poisson(uint64_t k, double z, double *lo, double *hi);
/* Returns the histogram bucket of latency v, and its lower bound. */
unsigned pmr_pairs_bucket(uint32_t v);
uint64_t pmr_pairs_bucket_lo(unsigned b);

#endif /* PMR_PAIRS_H */
