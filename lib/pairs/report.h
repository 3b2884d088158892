/*
 * report.h: the reports of pairs (lib/pairs/report.c): what cmd/pairs.c
 * parses from its options into a struct pmr_pairs_report, and the one
 * call that prints the report it asks for.
 */
#ifndef PMR_PAIRS_REPORT_H
#define PMR_PAIRS_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "pairs/pairs.h"
#include "util/cli.h"

/* The output formats (-f). */
enum pmr_pairs_fmt { PMR_PAIRS_F_TEXT, PMR_PAIRS_F_TSV, PMR_PAIRS_F_JSON,
	PMR_PAIRS_F_PMR };

/* What to print, and how (pairs(1) options). */
struct pmr_pairs_report {
	struct pmr_common c;
	struct pmr_pairs_opts po;
	enum pmr_pairs_fmt fmt;
	enum pmr_pairs_by by;
	int *mlist;		/* metric ids to print */
	int nm;
	int m_all;		/* -m all: occ_ and fu_ need --occupancy */
	int sort;		/* metric id, -1 for the default */
	uint64_t top;		/* 0: all */
	int truth;
	uint64_t min_k;
	int list;
	int hist;		/* latency of --hist, -1 for none */
	const char *if_arg;	/* --if, for the header */
	int prof;		/* enum pmr_pairs_prof of the report, -1 none */
	unsigned bits;		/* --paths */
	int partner;		/* --partner */
	struct pmr_pairs_geom geom;	/* --cache, --page-size */
	const char *rebuild;	/* --rebuild trace */
	const struct pmr_pairs_rebuild *rb;	/* its results, or NULL */
};

/*
 * Prints the report o asks for on f: the header, then the profile rows
 * prows (o->prof), a latency histogram (o->hist), or the metric table of
 * the n rows (the first o->top), and with o->truth the accuracy summary.
 * argc and argv are the command line, for the header.  Returns 0, or
 * PMR_ENOMEM.
 */
int pmr_pairs_report_write(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs *p, const struct pmr_pairs_row *rows, size_t n,
    struct pmr_pairs_prow *prows, size_t npr, int argc, char **argv)
    PMR_RESULT_USED;

/*
 * Returns a warning in buf when the effective sampling interval is off
 * the configured S (see report.c), or NULL.
 */
const char *pmr_pairs_rearm_note(const struct pmr_pairs_info *in,
    int nominal, char *buf, size_t len);

/* --- input (input.c) ---------------------------------------------------- */

/*
 * Reads every record of path (NULL: standard input) into p, counting them
 * in *nrec; with w, passes the records p does not take through to it
 * (output names it in messages).  Returns 0, or -1 with a message naming
 * the file in err.
 */
int pmr_pairs_read(struct pmr_pairs *p, const char *path,
    struct pmr_writer *w, const char *output, uint64_t *nrec, char *err,
    size_t errlen) PMR_RESULT_USED;
/*
 * Parses --cache=SIZE,WAYS,LINE into g: SIZE 1..2^40, WAYS 1..1024, LINE a
 * power of 2 up to 2^20, SIZE a multiple of WAYS x LINE.  Returns 0, or -1.
 */
int pmr_pairs_geom_parse(struct pmr_pairs_geom *g, const char *arg);

#endif /* PMR_PAIRS_REPORT_H */
