/*
 * table.c: the table emitter (see table.h): typed values to text, TSV,
 * JSON or bare fields.
 */
#include <inttypes.h>

#include "stream/pmr.h"
#include "util/table.h"

void
pmr_table_line(FILE *out, enum pmr_table_fmt fmt, const char *kind,
    const char *lead, int *seen, const struct pmr_tval *f, size_t n)
{
	size_t i;

	if (fmt == PMR_TABLE_TSV && !*seen) {
		*seen = 1;
		fprintf(out, "#%s", kind);
		for (i = 0; i < n; i++)
			fprintf(out, "\t%s", f[i].name);
		putc('\n', out);
	}
	if (fmt == PMR_TABLE_JSON)
		fprintf(out, "{\"type\":\"%s\"", kind);
	else if (fmt == PMR_TABLE_TEXT && lead != NULL)
		fputs(lead, out);
	else if (fmt != PMR_TABLE_FIELDS)
		fputs(kind, out);
	for (i = 0; i < n; i++) {
		if (fmt == PMR_TABLE_JSON)
			fprintf(out, ",\"%s\":", f[i].name);
		else if (fmt == PMR_TABLE_TSV)
			putc('\t', out);
		else if (f[i].pos)
			putc(' ', out);
		else
			fprintf(out, " %s=", f[i].name);
		switch (f[i].t) {
		case PMR_TV_U64:
			fprintf(out, "%" PRIu64, f[i].u);
			break;
		case PMR_TV_HEX:
			fprintf(out, fmt == PMR_TABLE_JSON ? "\"0x%" PRIx64 "\"" :
			    "0x%" PRIx64, f[i].u);
			break;
		case PMR_TV_STR:
			if (fmt == PMR_TABLE_JSON)
				pmr_json_str(out, f[i].s);
			else
				fputs(f[i].s, out);
			break;
		case PMR_TV_PCT:
			if (fmt == PMR_TABLE_TEXT)
				fprintf(out, "%.2f%%", 100 * f[i].d);
			else
				fprintf(out, "%.6f", 100 * f[i].d);
			break;
		case PMR_TV_DBL:
			fprintf(out, "%.6g", f[i].d);
			break;
		}
	}
	fputs(fmt == PMR_TABLE_JSON ? "}\n" : "\n", out);
}
