/*
 * input.h: what icost reads (input.c): GNODE records into a breakdown
 * (with --nodes, --cut, --warm, fragments, and the checks that refuse
 * mixed inputs), the passes of --top, pmsim runs one per subset
 * (--multisim), COST records (merged, or side by side for --compare),
 * the symbols of IMAGE records for -e proc= and --top, and COST records
 * written back.  cmd/icost.c fills a struct pmr_icost_input with the
 * options of a run and calls these.
 *
 * Nothing here exits or prints on stderr: a function returns 0 or a
 * PMR_E* code with the message (without the program's name) in
 * errmsg; PMR_EINVAL means a usage error (the caller says it as one).
 * Warnings, notes and -v counts go, as they come, to the warn callback,
 * which prints them.
 */
#ifndef PMR_ICOST_INPUT_H
#define PMR_ICOST_INPUT_H

#include <stdint.h>
#include <stdio.h>

#include "icost/bd.h"
#include "icost/icost.h"
#include "icost/top.h"
#include "sim/sim.h"
#include "stream/pmr.h"
#include "sym/sym.h"

/* What a message to the warn callback is: the caller decides, from its
 * -q and -v, which to print. */
enum pmr_icost_say {
	PMR_ICOST_WARNING,	/* always */
	PMR_ICOST_NOTE,		/* unless quiet */
	PMR_ICOST_VERBOSE	/* with -v, unless quiet */
};

/* The options of a run (set by the caller before reading) and the state
 * the readers share. */
struct pmr_icost_input {
	/* options */
	struct pmr_icost_cat cats[PMR_ICOST_MAXCAT];	/* -c, then -e */
	unsigned ncat;
	int fragments;		/* --fragments */
	uint64_t cut;		/* --cut: fragments of cut nodes by seq */
	const char *sysroot;	/* --sysroot */
	FILE *nodes_out;	/* --nodes: node times here, or NULL */
	const struct pmr_sim_config *stated;	/* -m and -O, or NULL */
	struct pmr_icost_gopts go;
	/* receives each warning, note and -v line (msg without the
	 * program's name or a newline); NULL drops them */
	void (*warn)(void *arg, enum pmr_icost_say level, const char *msg);
	void *warnarg;

	/* results */
	int graph_read;		/* the breakdown is from GNODE records */
	int graph_wp;		/* of a machine that fetches wrong paths */
	struct pmr_icost_diag dg;	/* of the graph read */
	struct pmr_icost_td td;	/* the base runs' final STATS */
	char sym_note[400];	/* the first image without symbols, why */
	/* --top: the table, the base time, the passes that measured */
	struct pmr_icost_top *top_tab;
	int64_t top_t;
	unsigned top_passes;

	/* private */
	unsigned top_gain;	/* the first pass: the gain to bound */
	struct pmr_symtab *top_st[64];	/* the first stream's images */
	unsigned top_nst;
	struct pmr_icost_range top_rng[PMR_ICOST_MAXCAT];
	char errmsg[512];
};

/* Clears ip (no categories, no options). */
void pmr_icost_input_init(struct pmr_icost_input *ip);
/* Frees what the readers keep in ip (--top's table and symbols); not
 * the categories' ranges, which are the caller's. */
void pmr_icost_input_free(struct pmr_icost_input *ip);

/*
 * Adds category name with idealizations ideal (PMR_SIM_IDEAL_* bits); the
 * caller sets its filter through *cp.  Returns 0, or PMR_EINVAL (too many
 * categories, or name given twice).
 */
int pmr_icost_input_cat_add(struct pmr_icost_input *ip, const char *name,
    unsigned ideal, struct pmr_icost_cat **cp) PMR_RESULT_USED;

/*
 * Sets c to the machine preset (NULL: alpha21264) with the settings
 * kvs[0..nkv) ("key=value", as pmsim -O).  Returns 0, or PMR_EINVAL with
 * *bad the setting at fault (nkv: the preset) and why in eb.
 */
int pmr_icost_config_stated(struct pmr_sim_config *c, const char *preset,
    const char *const *kvs, unsigned nkv, unsigned *bad, char *eb,
    size_t eblen) PMR_RESULT_USED;

/*
 * Reads files[0..nfiles) ("-": standard input) as one record sequence:
 * GNODE streams into bd (initialized by the caller with ip's categories)
 * by the critical path of lanes[0..nl), ip->dg and ip->graph_read set; or
 * COST streams, merged into bd (which is replaced).  Final STATS add to
 * ip->td.  Returns 0 or a PMR_E* code (ip->errmsg).
 */
int pmr_icost_read_graph(struct pmr_icost_input *ip, char **files,
    int nfiles, struct pmr_icost_bd *bd, const uint32_t *lanes,
    unsigned nl) PMR_RESULT_USED;

/*
 * Reads pmsim runs (META ideal, a final STATS each), one per subset of
 * ip's categories, into bd; the base run's STATS add to ip->td.  Returns
 * 0 or a PMR_E* code (ip->errmsg).
 */
int pmr_icost_read_multisim(struct pmr_icost_input *ip, char **files,
    int nfiles, struct pmr_icost_bd *bd) PMR_RESULT_USED;

/*
 * Reads the COST records of each of files[0..nfiles) into b[i], checking
 * that they are breakdowns of one machine and one category list (for
 * --compare).  Returns 0 or a PMR_E* code (ip->errmsg); the caller frees
 * each b[i] only on success.
 */
int pmr_icost_read_compare(struct pmr_icost_input *ip, char **files,
    int nfiles, struct pmr_icost_bd *b) PMR_RESULT_USED;

/*
 * --top: the k static instructions whose cat costs most, each idealized
 * alone, and their icost with with (NULL: none).  A first pass bounds
 * each pc's cost; each pass after it measures the pcs of largest bound,
 * until no bound beats the k-th cost measured.  Every pass reads the
 * files again.  Sets ip->top_tab, top_t and top_passes for
 * pmr_icost_top_report (pmr_icost_input_proc names the procedures);
 * returns 0 or a PMR_E* code (ip->errmsg).
 */
int pmr_icost_top_run(struct pmr_icost_input *ip, char **files, int nfiles,
    const struct pmr_icost_base *cat, const struct pmr_icost_base *with,
    unsigned k) PMR_RESULT_USED;
/* Returns the procedure of the first stream's images that holds pc, or
 * NULL; arg is the struct pmr_icost_input (a top view's proc). */
const char *pmr_icost_input_proc(uint64_t pc, void *arg);

/* Puts in buf the title of the breakdown of a graph read into bd (its
 * time against the observed cycles, or over fragments), or "". */
void pmr_icost_input_title(const struct pmr_icost_input *ip,
    const struct pmr_icost_bd *bd, char *buf, size_t len);
/*
 * Says what a breakdown read into bd needs saying (the -v counts, the
 * costs that are negative or not monotone, graph nodes later than
 * observed) and checks it: with want_td, that the input had Top-Down
 * STATS.  Returns 0 or a PMR_E* code (ip->errmsg).
 */
int pmr_icost_input_check(struct pmr_icost_input *ip,
    const struct pmr_icost_bd *bd, int want_td) PMR_RESULT_USED;

/*
 * Writes bd as COST records on w, then closes w (aborts it after a
 * failed write).  Returns 0, or a PMR_E* code with the message in eb.
 */
int pmr_icost_costs_write(struct pmr_writer *w,
    const struct pmr_icost_bd *bd, char *eb, size_t eblen) PMR_RESULT_USED;

#endif /* PMR_ICOST_INPUT_H */
