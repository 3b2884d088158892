/*
 * table.h: the table emitter.  A report line is a list of typed values
 * (struct pmr_tval: unsigned, hex address, string, fraction shown as a
 * percentage, double), printed in one of the report formats every program
 * offers: text ("kind name=value ..."), TSV (a "#kind" header line before
 * the first line of each kind, then tab-separated values), JSON (one
 * object a line, {"type":"kind",...}), or the bare fields (the text form
 * without its lead, for a META record's value).  The numbers print the
 * same way in every program: %.2f%% (text) or %.6f (TSV, JSON) for a
 * percentage, %.6g for a double, 0x%x for an address (a JSON string).
 *
 * mhash prints through it, pairs' metric table through its grid; the
 * programs to come (icost, pmprof) are to print through both.
 */
#ifndef PMR_TABLE_H
#define PMR_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pmr_table_fmt {
	PMR_TABLE_TEXT,
	PMR_TABLE_TSV,
	PMR_TABLE_JSON,
	PMR_TABLE_FIELDS	/* the text fields only, no lead */
};

enum pmr_tval_type { PMR_TV_U64, PMR_TV_HEX, PMR_TV_STR, PMR_TV_PCT,
	PMR_TV_DBL, PMR_TV_NUM, PMR_TV_FMT, PMR_TV_GROUP };

struct pmr_tval {
	const char *name;
	enum pmr_tval_type t;
	int pos;		/* text: the value alone, without "name=" */
	uint64_t u;		/* U64, HEX; GROUP: its values */
	double d;		/* PCT (a fraction), DBL */
	const char *s;		/* STR; NUM, FMT: its printf format */
};

/* Initializers of one value: name, value, and for text whether the value
 * stands alone (pos). */
#define PMR_TVU(n, v, p) { n, PMR_TV_U64, p, (v), 0, NULL }
#define PMR_TVX(n, v) { n, PMR_TV_HEX, 1, (v), 0, NULL }
#define PMR_TVS(n, v, p) { n, PMR_TV_STR, p, 0, 0, (v) }
#define PMR_TVP(n, v, p) { n, PMR_TV_PCT, p, 0, (v), NULL }
#define PMR_TVD(n, v) { n, PMR_TV_DBL, 0, 0, (v), NULL }
/* A double in printf format f; NaN is missing: "-", or null in JSON. */
#define PMR_TVN(n, v, f) { n, PMR_TV_NUM, 0, 0, (v), (f) }
/* A double in printf format f, NaN included ("nan"). */
#define PMR_TVF(n, v, f) { n, PMR_TV_FMT, 0, 0, (v), (f) }
/* The next k values form the JSON object n; in other formats they stand
 * flat, and the group itself prints nothing. */
#define PMR_TVG(n, k) { n, PMR_TV_GROUP, 0, (k), 0, NULL }

/*
 * Prints the n values of f as one line of kind on out.  lead replaces
 * kind at the start of a text line (NULL: kind).  *seen says whether the
 * TSV header of this kind was printed; it is printed, and *seen set, before
 * the first line.  A NULL kind makes lines without it: a TSV table of
 * one kind ("#name1\tname2..." then the values).
 */
void pmr_table_line(FILE *out, enum pmr_table_fmt fmt, const char *kind,
    const char *lead, int *seen, const struct pmr_tval *f, size_t n);
/* Prints the TSV header of kind and the names of f alone (a table that
 * may have no lines). */
void pmr_table_header(FILE *out, const char *kind, const struct pmr_tval *f,
    size_t n);

/*
 * An aligned text table: cells added row-major into a grid of ncol
 * columns, printed at the end with each column as wide as its widest
 * cell, the first left-aligned and the others right-aligned after two
 * spaces (pairs' metric table).
 */
struct pmr_grid {
	size_t ncol;
	char **cell;
	size_t n, cap;
	int failed;		/* out of memory: pmr_grid_print says so */
};

void pmr_grid_init(struct pmr_grid *g, size_t ncol);
/* Adds a copy of s as the next cell. */
void pmr_grid_put(struct pmr_grid *g, const char *s);
/* Adds a printf-formatted cell. */
void pmr_grid_putf(struct pmr_grid *g, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));
/* Prints the grid on f and frees it.  Returns 0, or -1 if a cell could
 * not be stored (nothing is then printed). */
int pmr_grid_print(struct pmr_grid *g, FILE *f);
/* Frees the grid without printing it (a report that failed midway). */
void pmr_grid_free(struct pmr_grid *g);

#endif /* PMR_TABLE_H */
