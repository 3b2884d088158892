/*
 * prof.h: pmprof's model, DCPI's profiles (Anderson et al., SOSP '97 §3)
 * over the SAMPLE records of any sampler pmsim has, and the truth they are
 * scored against.
 *
 * A profile is a set of counts keyed by (run, event, pc).  A run is one
 * input: a stream (a pmsim run), or an epoch of a profile database.  An
 * event is a named column:
 *
 *   sample events   one per sampler and what it counts: "profileme",
 *                   "ibs", "counter:cycles" (the counter's event), "pebs:
 *                   retired", "tip", "last"; the samples that name the pc;
 *   sample bits     samples of a full-record sampler (ProfileMe, IBS, PEBS,
 *                   TIP at commit) with an event bit, as "profileme:dmiss"
 *                   (dmiss, imiss, misp, dtlb, llc, abort);
 *   latency sums    ProfileMe's stage latencies of retired samples, summed,
 *                   as "lat:fm" ... "lat:rr" with their count "lat:n"
 *                   (list prints the means);
 *   truth           TRUTH's exact values: "truth:cycles" (the time-
 *                   proportional oracle's tp_cycles), "truth:retired",
 *                   "truth:fetched", "truth:taken"; on an in-order core
 *                   "truth:head" (head_cycles) and its causes,
 *                   "truth:hd:issue" ... (pmprof calc's score).
 *
 * Reports group the pcs by image, procedure, basic block or instruction
 * (pmr_prof_group), with symbols and code from the images (images.h).
 * Memory grows with the distinct (run, event, pc) keys, never with the
 * length of a stream.
 */
#ifndef PMR_PROF_H
#define PMR_PROF_H

#include <stddef.h>
#include <stdint.h>

#include "stream/pmr.h"
#include "sym/images.h"
#include "trace/trace.h"

struct pmr_prof;

/* What an event column is. */
enum pmr_prof_evkind {
	PMR_PROF_EV_SAMPLE,	/* a sampler's samples */
	PMR_PROF_EV_BIT,	/* samples with an event bit */
	PMR_PROF_EV_LAT,	/* latency sums */
	PMR_PROF_EV_TRUTH	/* exact values */
};

/* One input. */
struct pmr_prof_run {
	char *name;		/* file name or epoch */
	uint64_t cycles, retired;	/* the final STATS, 0 if none */
	uint64_t seed;		/* of pmsim's PROV record */
	int has_truth;
	char *config;		/* pmsim's META config text, NULL if none */
	size_t nconfig;
};

/* Granularities of pmr_prof_group(). */
enum pmr_prof_by {
	PMR_PROF_BY_IMAGE,
	PMR_PROF_BY_PROC,
	PMR_PROF_BY_BLOCK,
	PMR_PROF_BY_INSN
};

/* One group of pcs: an image, a procedure, a block or an instruction. */
struct pmr_prof_row {
	uint64_t lo, hi;	/* its pcs, [lo, hi); hi = lo + 1 when the
				 * extent is unknown */
	long img;		/* image index, -1 unknown */
	const char *proc;	/* procedure name, NULL unknown */
	uint64_t proc_lo;	/* its start */
	double *v;		/* nrun x nev values: v[run * nev + ev] */
};

/* Returns an empty profile; symbols and code are looked up under sysroot
 * (NULL: as recorded).  Caller frees with pmr_prof_free(). */
struct pmr_prof *pmr_prof_new(const char *sysroot);
void pmr_prof_free(struct pmr_prof *p);
/* Starts a new run named name (copied); the records added after it
 * belong to it.  Returns 0 or PMR_ENOMEM. */
int pmr_prof_begin_run(struct pmr_prof *p, const char *name)
    PMR_RESULT_USED;
/*
 * Adds one record of the current run: SAMPLE, PAIR (both members), TRUTH,
 * IMAGE, STATS, META (the sampler's description), PROV.  Returns 1 if
 * the record was used, 0 if it is of no use here, or <0 (PMR_ECORRUPT,
 * PMR_ENOMEM; pmr_prof_errmsg() says what).
 */
int pmr_prof_add(struct pmr_prof *p, const struct pmr_rec *rec)
    PMR_RESULT_USED;
/* Adds v to the count of (current run, event, pc); the event is made if
 * new.  Returns 0 or PMR_ENOMEM. */
int pmr_prof_count(struct pmr_prof *p, const char *event, uint64_t pc,
    double v) PMR_RESULT_USED;
/* Adds an image to the current run's.  Returns 0 or PMR_ENOMEM. */
int pmr_prof_image(struct pmr_prof *p, const struct pmr_image *im)
    PMR_RESULT_USED;
const char *pmr_prof_errmsg(const struct pmr_prof *p);

/* Calls fn for every count (run, event, pc, value) in the order they
 * were made; fn returning non-zero stops with that value.  Returns 0 or
 * fn's value. */
int pmr_prof_each(const struct pmr_prof *p, int (*fn)(void *arg,
    size_t run, size_t ev, uint64_t pc, double v), void *arg);
/* Returns the number of events and event k's name and kind. */
size_t pmr_prof_nevent(const struct pmr_prof *p);
const char *pmr_prof_event(const struct pmr_prof *p, size_t k);
enum pmr_prof_evkind pmr_prof_evkind(const struct pmr_prof *p, size_t k);
/* Returns the index of the event called name, or -1. */
long pmr_prof_event_find(const struct pmr_prof *p, const char *name);
/* Returns the number of runs and run r. */
size_t pmr_prof_nrun(const struct pmr_prof *p);
const struct pmr_prof_run *pmr_prof_runinfo(const struct pmr_prof *p,
    size_t r);
/* Returns the samples of every sample event in every run. */
uint64_t pmr_prof_nsamples(const struct pmr_prof *p);
/* Returns the images of every run. */
struct pmr_images *pmr_prof_images(struct pmr_prof *p);

/*
 * Groups the counts by granularity by into *rows (*n of them), sorted by
 * address but for two kinds of row: by image or procedure, the pcs in no
 * image make one row (img -1), last; by procedure, the pcs of an image
 * outside its symbols make one row (proc NULL, the image's extent); with
 * per_run the values of each run stay apart (nrun x nev a
 * row), else they are summed (one run).  Only the pcs in [lo, hi) are
 * grouped (0, UINT64_MAX: all).  Blocks come from the code: the
 * procedure's instructions decoded (capstone), a block ending at each
 * control transfer and starting at each target; a pc whose code cannot be
 * read is a block of its own.  *note, if not NULL, is set to a line
 * saying which images had no symbols or code (NULL: all had).  Returns
 * 0 or PMR_ENOMEM; the rows live until the next call or pmr_prof_free().
 */
int pmr_prof_group(struct pmr_prof *p, enum pmr_prof_by by, int per_run,
    uint64_t lo, uint64_t hi, struct pmr_prof_row **rows, size_t *n,
    const char **note) PMR_RESULT_USED;

/* One instruction of a listing. */
struct pmr_prof_insn {
	uint64_t pc;
	unsigned len;		/* 0: could not be read or decoded */
	unsigned cls;		/* enum pmr_opclass */
	int leader;		/* starts a basic block */
	char text[96];		/* mnemonic and operands */
	struct pmr_sinsn si;	/* the decoded instruction, if len > 0 */
};

/*
 * Decodes the code of image img in [lo, hi) into *out (*n instructions;
 * caller frees), marking the block leaders.  Returns 0, PMR_ENOMEM, or
 * the image file's error (images.h) with nothing decoded.
 */
int pmr_prof_code(struct pmr_prof *p, size_t img, uint64_t lo, uint64_t hi,
    struct pmr_prof_insn **out, size_t *n) PMR_RESULT_USED;

/*
 * The TIP paper's error of an estimate (MICRO '21 §5): sum over groups of
 * |e_g / E - c_g / C| with E, C the totals of estimate and truth (each
 * estimate scaled to the truth's total), in [0, 2].  Groups with both 0
 * count nothing; NaN if either total is 0.
 */
double pmr_prof_error(const double *est, const double *truth, size_t n);
/*
 * The noise floor of that error at m samples: the expected error of an
 * ideal random sample, m draws from truth's own distribution.  A group's
 * count is then binomial, and the expectation is exact (de Moivre's mean
 * deviation of each group's count, summed), with no draws to repeat.
 * Returns NaN when m or the truth's total is 0.
 */
double pmr_prof_floor(const double *truth, size_t n, uint64_t m);

/* --- the profile database (db.h) ------------------------------------ */

struct pmr_profdb;
/*
 * Adds every count of p to db in one transaction of epoch (pmr_profdb_
 * begin): each pc as (image, file offset), a pc in no image as the unknown
 * image's; truth:cycles rounded to whole cycles.  cmdline and seed go in
 * the database's run row.  Returns 0, or a PMR_E* code with db's message
 * (pmr_profdb_errmsg()), the add rolled back.
 */
int pmr_prof_db_add(struct pmr_prof *p, struct pmr_profdb *db,
    const char *epoch, const char *cmdline, uint64_t seed) PMR_RESULT_USED;
/*
 * Reads epoch (NULL: every epoch, one run each, in the database's order)
 * of db into p.  An image of the database becomes one image at a base of
 * its own (its file offsets at start + offset), so symbols and code are
 * found in its file (at its first path) as for a stream.  Returns 0, or a
 * PMR_E* code (p's or db's message).
 */
int pmr_prof_db_read(struct pmr_prof *p, struct pmr_profdb *db,
    const char *epoch) PMR_RESULT_USED;

#endif /* PMR_PROF_H */
