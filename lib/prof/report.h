/*
 * report.h: pmprof's reports over a profile (prof.h), in DCPI's layouts
 * (Anderson et al., SOSP '97 §3, Figs. 1 and 3) as text, or as TSV and
 * JSON lines through the table emitter; and its exports for the tools
 * people already use: callgrind's format (KCachegrind,
 * callgrind_annotate), folded stacks (flame graphs) and pprof (pprof.h).
 */
#ifndef PMR_PROF_REPORT_H
#define PMR_PROF_REPORT_H

#include <stdio.h>

#include "prof/prof.h"
#include "util/table.h"

/* What a report shows. */
struct pmr_prof_view {
	enum pmr_table_fmt fmt;	/* text, tsv or json */
	const long *ev;		/* the event columns, first the primary */
	size_t nev;
	size_t top;		/* rows at most, 0 all */
	enum pmr_prof_by by;	/* score --by, folded --by */
	double alpha;		/* diff: family-wise significance level */
	int detail;		/* score: per-group rows too */
};

/*
 * Prints the samples of each event per image (by = BY_IMAGE) or per
 * procedure (BY_PROC), sorted by the primary event, with each event's %
 * of its own total and the primary event's cumulative % (DCPI's
 * dcpiprof, Fig. 1).  Returns 0, or PMR_ENOMEM.
 */
int pmr_prof_report_flat(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, enum pmr_prof_by by) PMR_RESULT_USED;
/*
 * Prints the annotated code of the procedure called proc (dcpilist):
 * each instruction with its samples of every event, ProfileMe's mean
 * stage latencies and, with TRUTH, the exact retired count and oracle
 * cycles; a line per basic block with its totals.  Returns 0, PMR_EINVAL
 * (no such procedure: *msg says so), or another code with *msg.
 */
int pmr_prof_report_list(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char *proc, const char **msg)
    PMR_RESULT_USED;
/*
 * Prints every sample event's error against TRUTH (the oracle's cycles
 * and the exact retired counts) per instruction, block and procedure,
 * beside the noise floor of as many ideal random samples; with detail,
 * the rows of granularity v->by for the primary event.  Returns 0,
 * PMR_EINVAL when there is no TRUTH (*msg), or PMR_ENOMEM.
 */
int pmr_prof_report_score(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char **msg) PMR_RESULT_USED;
/*
 * Prints, per procedure, the primary event's samples across the runs:
 * range% = (max - min) / sum, sum, sum% of the total, N, mean, standard
 * deviation (n - 1), min, max, sorted by range% (dcpistats, Fig. 3).
 * Procedures are matched across runs by name and image file name, so
 * that runs of two builds compare.
 * Returns 0, PMR_EINVAL with fewer than 2 runs (*msg), or PMR_ENOMEM.
 */
int pmr_prof_report_stats(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char **msg) PMR_RESULT_USED;
/*
 * Prints, per procedure, the primary event's samples in run 0 and run 1,
 * their shares, the difference, and a two-sided test of equal shares
 * (the two-proportion z test of the 2x2 table, continuity-corrected) with
 * Holm's correction over the rows at family-wise level v->alpha: rows not
 * marked are within sampling noise.  Sorted by |z|.  Procedures are
 * matched by name and image file name, as for stats.
 * Returns 0, PMR_EINVAL unless there are 2 runs (*msg), or PMR_ENOMEM.
 */
int pmr_prof_report_diff(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char **msg) PMR_RESULT_USED;
/*
 * Writes the profile in callgrind's format ("positions: instr line",
 * every chosen event as a callgrind event, ob= the image, fn= the
 * procedure, one cost line per instruction).  Returns 0 or PMR_ENOMEM.
 */
int pmr_prof_export_callgrind(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v) PMR_RESULT_USED;
/*
 * Writes folded stacks "image;procedure[;0xpc] count" of the primary
 * event (v->by: BY_PROC or BY_INSN), for flame graphs.  Returns 0 or
 * PMR_ENOMEM.
 */
int pmr_prof_export_folded(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v) PMR_RESULT_USED;

/*
 * Writes the profile as a gzipped pprof profile.proto (pprof.h): one
 * location per instruction with samples, a sample type per chosen event
 * (unit "count", "cycles" for truth:cycles), a mapping per image, a
 * function per procedure, and ProfileMe's mean stage latencies as numeric
 * labels lat_fm ... lat_rr (unit "cycles", rounded to whole cycles).
 * Returns 0, PMR_ENOMEM or PMR_EIO.
 */
int pmr_prof_export_pprof(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v) PMR_RESULT_USED;

#endif /* PMR_PROF_REPORT_H */
