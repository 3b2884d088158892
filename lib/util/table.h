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
 * mhash prints through it today; pairs' reports and the programs to come
 * (icost, pmprof) are to move onto it.
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
	PMR_TV_DBL };

struct pmr_tval {
	const char *name;
	enum pmr_tval_type t;
	int pos;		/* text: the value alone, without "name=" */
	uint64_t u;		/* U64, HEX */
	double d;		/* PCT (a fraction), DBL */
	const char *s;		/* STR */
};

/* Initializers of one value: name, value, and for text whether the value
 * stands alone (pos). */
#define PMR_TVU(n, v, p) { n, PMR_TV_U64, p, (v), 0, NULL }
#define PMR_TVX(n, v) { n, PMR_TV_HEX, 1, (v), 0, NULL }
#define PMR_TVS(n, v, p) { n, PMR_TV_STR, p, 0, 0, (v) }
#define PMR_TVP(n, v, p) { n, PMR_TV_PCT, p, 0, (v), NULL }
#define PMR_TVD(n, v) { n, PMR_TV_DBL, 0, 0, (v), NULL }

/*
 * Prints the n values of f as one line of kind on out.  lead replaces
 * kind at the start of a text line (NULL: kind).  *seen says whether the
 * TSV header of this kind was printed; it is printed, and *seen set, before
 * the first line.
 */
void pmr_table_line(FILE *out, enum pmr_table_fmt fmt, const char *kind,
    const char *lead, int *seen, const struct pmr_tval *f, size_t n);

#endif /* PMR_TABLE_H */
