/*
 * run.h: one mhash run: the configurations side by side over one input,
 * the input readers (EVENT records through a reader thread, text lines,
 * instruction traces, --dump-events) and the reports (per-interval
 * blocks, summary, area, theory) in text, TSV, JSON or HOT/META records.
 * cmd/mhash.c parses the options into a struct pmr_mhash_run and calls
 * these; nothing here exits or prints on stderr: errors are sticky in the
 * run (failed, errmsg) and warnings go to its warn callback.
 */
#ifndef PMR_MHASH_RUN_H
#define PMR_MHASH_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "mhash/dcpi.h"
#include "mhash/mhash.h"
#include "stream/pmr.h"
#include "util/cli.h"

/* the report formats, in the order of enum pmr_table_fmt (-f pmr: the
 * fields as META values) */
enum pmr_mhash_fmt { PMR_MHASH_F_TEXT, PMR_MHASH_F_TSV, PMR_MHASH_F_JSON,
	PMR_MHASH_F_PMR };


/* --kind=addr: (load pc, load address), traces only */
#define PMR_MHASH_K_ADDR 3
/* --kind=sample: SAMPLE records as (pc, sampler), pid = context */
#define PMR_MHASH_K_SAMPLE 4

struct pmr_mhash_prof {
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	char name[64];
	struct pmr_mhash_enet agg;
};

struct pmr_mhash_run {
	struct pmr_common com;
	struct pmr_mhash_cfg base;
	enum pmr_mhash_algo algos[8];
	size_t nalgo;
	const char *sweep;
	int text, hex;
	int kind;		/* 0 all, else PMR_EV_* or PMR_MHASH_K_ADDR */
	int trace;		/* input is an instruction trace */
	int exact, eval, area, theory, stats, summary_only;
	int empty_zero, with_partial;
	int dump;
	int synth;
	struct pmr_mhash_synth syn;
	enum pmr_mhash_fmt fmt;
	const char *input;	/* for the header */

	struct pmr_mhash_prof *p;
	size_t np;
	struct pmr_mhash *ex;	/* exact reference for --eval */
	int blocks;		/* print per-interval blocks */
	struct pmr_mhash_row *rows;
	size_t rowcap;
	int seen[16];		/* TSV headers printed, by line kind */
	struct pmr_writer *w;	/* --dump-events */
	struct pmr_progress progress;	/* on a terminal */
	struct pmr_writer *pw;	/* -f pmr */
	unsigned cur_kind;	/* EVENT kind of the tuple being fed */
	uint32_t cur_pid;	/* -a dcpi: the pid of the tuple being fed */
	struct pmr_dcpi_cfg dcpi_cfg;
	struct pmr_dcpi *dcpi;	/* -a dcpi: the only model of the run */
	struct pmr_mhash_cand *prevx;	/* exact candidates of the previous
					 * interval, for the churn */
	size_t nprevx, prevcap;
	uint64_t events;

	FILE *out;		/* the report (text, TSV, JSON) */
	/* the first error, sticky: the functions below do nothing more once
	 * failed is set, and return -1 where they return a status */
	int failed;
	char errmsg[512];
	/* a warning (a file that cannot be opened...): the caller prints it;
	 * may be called from the reader thread */
	void (*warn)(void *arg, const char *msg);
	void *warnarg;
};

/* Events a batch of the readers and of --synth. */
#define PMR_MHASH_BATCH 4096

/* The names of the settings, by enum value, NULL-terminated. */
extern const char *const pmr_mhash_hash_names[], *const pmr_mhash_sbox_names[],
    *const pmr_mhash_victim_names[], *const pmr_mhash_init_names[],
    *const pmr_mhash_acct_names[], *const pmr_mhash_kind_names[];

/* Sets the run's error (the first one sticks); returns -1. */
int pmr_mhash_fail(struct pmr_mhash_run *r, const char *fmt, ...)
    PMR_FORMAT(2, 3);
/* Formats a warning and hands it to r->warn. */
void pmr_mhash_warn(struct pmr_mhash_run *r, const char *fmt, ...)
    PMR_FORMAT(2, 3);

/* --- reports (report.c) ------------------------------------------------ */

void pmr_mhash_print_config(struct pmr_mhash_run *r,
    const struct pmr_mhash_prof *p);
void pmr_mhash_print_area(struct pmr_mhash_run *r);
void pmr_mhash_print_theory(struct pmr_mhash_run *r);
/* Closes the interval of every profiler (partial: the input ended). */
void pmr_mhash_interval_end(struct pmr_mhash_run *r, int partial);
void pmr_mhash_print_summary(struct pmr_mhash_run *r);
/* -a dcpi: the configuration line, and the statistics line (after
 * pmr_dcpi_finish). */
void pmr_mhash_print_dcpi_config(struct pmr_mhash_run *r);
void pmr_mhash_print_dcpi(struct pmr_mhash_run *r);

/* --- input (input.c) ---------------------------------------------------- */

/* Feeds one event (idx: the text input's given hash indices, or NULL). */
void pmr_mhash_feed(struct pmr_mhash_run *r, uint64_t pc, uint64_t v,
    const uint32_t *idx);
/* Feeds n events. */
void pmr_mhash_feed_batch(struct pmr_mhash_run *r, const uint64_t *pc,
    const uint64_t *v, size_t n);
/*
 * The readers return 0, 1 if the input could not be opened (after a
 * warning), or -1 on an error (r->errmsg).
 */
int pmr_mhash_read_text(struct pmr_mhash_run *r, const char *path);
int pmr_mhash_read_pmr(struct pmr_mhash_run *r, const char *path);
/* Reads the EVENT records of every file through a reader thread. */
int pmr_mhash_read_pmr_all(struct pmr_mhash_run *r, int nfiles,
    char **files);
int pmr_mhash_read_trace(struct pmr_mhash_run *r, const char *path);

#endif /* PMR_MHASH_RUN_H */
