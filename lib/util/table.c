/*
 * table.c: the table emitter (see table.h): typed values to text, TSV,
 * JSON or bare fields.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream/pmr.h"
#include "util/table.h"

void
pmr_table_header(FILE *out, const char *kind, const struct pmr_tval *f,
    size_t n)
{
	size_t i;

	int sep = kind != NULL;

	fprintf(out, "#%s", kind != NULL ? kind : "");
	for (i = 0; i < n; i++) {
		if (f[i].t == PMR_TV_GROUP)
			continue;
		fprintf(out, sep ? "\t%s" : "%s", f[i].name);
		sep = 1;
	}
	putc('\n', out);
}

void
pmr_table_line(FILE *out, enum pmr_table_fmt fmt, const char *kind,
    const char *lead, int *seen, const struct pmr_tval *f, size_t n)
{
	size_t i, group = 0;	/* values left in the open JSON object */
	int sep = kind != NULL;	/* a separator goes before the next value */

	if (fmt == PMR_TABLE_TSV && !*seen) {
		*seen = 1;
		pmr_table_header(out, kind, f, n);
	}
	if (fmt == PMR_TABLE_JSON)
		fprintf(out, kind != NULL ? "{\"type\":\"%s\"" : "{", kind);
	else if (fmt == PMR_TABLE_TEXT && lead != NULL)
		fputs(lead, out);
	else if (fmt != PMR_TABLE_FIELDS && kind != NULL)
		fputs(kind, out);
	for (i = 0; i < n; i++) {
		if (f[i].t == PMR_TV_GROUP) {
			if (fmt == PMR_TABLE_JSON && f[i].u > 0) {
				fprintf(out, sep ? ",\"%s\":{" : "\"%s\":{",
				    f[i].name);
				group = f[i].u;
				sep = 0;
			}
			continue;	/* elsewhere its values stand flat */
		}
		if (fmt == PMR_TABLE_JSON)
			fprintf(out, sep ? ",\"%s\":" : "\"%s\":",
			    f[i].name);
		else if (fmt == PMR_TABLE_TSV) {
			if (sep)
				putc('\t', out);
		} else if (f[i].pos)
			putc(' ', out);
		else
			fprintf(out, " %s=", f[i].name);
		switch (f[i].t) {
		case PMR_TV_U64:
			fprintf(out, "%" PRIu64, f[i].u);
			break;
		case PMR_TV_HEX:
			if (fmt == PMR_TABLE_JSON)
				fprintf(out, "\"0x%" PRIx64 "\"", f[i].u);
			else
				fprintf(out, "0x%" PRIx64, f[i].u);
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
		case PMR_TV_NUM:
			if (isnan(f[i].d))
				fputs(fmt == PMR_TABLE_JSON ? "null" : "-",
				    out);
			else
				fprintf(out, f[i].s, f[i].d);
			break;
		case PMR_TV_FMT:
			fprintf(out, f[i].s, f[i].d);
			break;
		case PMR_TV_GROUP:
			break;
		}
		sep = 1;
		if (group > 0 && --group == 0)
			putc('}', out);
	}
	fputs(fmt == PMR_TABLE_JSON ? "}\n" : "\n", out);
}

void
pmr_grid_init(struct pmr_grid *g, size_t ncol)
{
	memset(g, 0, sizeof(*g));
	g->ncol = ncol;
}

void
pmr_grid_put(struct pmr_grid *g, const char *s)
{
	char **c;

	if (g->failed)
		return;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 64;
		if ((c = realloc(g->cell, g->cap * sizeof(*c))) == NULL) {
			g->failed = 1;
			return;
		}
		g->cell = c;
	}
	if ((g->cell[g->n] = strdup(s)) == NULL)
		g->failed = 1;
	else
		g->n++;
}

void
pmr_grid_putf(struct pmr_grid *g, const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pmr_grid_put(g, buf);
}

int
pmr_grid_print(struct pmr_grid *g, FILE *f)
{
	size_t i, c, *w;
	int rc = -1;

	if (!g->failed && (w = calloc(g->ncol, sizeof(*w))) != NULL) {
		for (i = 0; i < g->n; i++) {
			c = i % g->ncol;
			if (strlen(g->cell[i]) > w[c])
				w[c] = strlen(g->cell[i]);
		}
		for (i = 0; i < g->n; i++) {
			c = i % g->ncol;
			if (c == 0)
				fprintf(f, "%-*s", (int)w[c], g->cell[i]);
			else
				fprintf(f, "  %*s", (int)w[c], g->cell[i]);
			if (c == g->ncol - 1)
				fputc('\n', f);
		}
		free(w);
		rc = 0;
	}
	pmr_grid_free(g);
	return rc;
}

void
pmr_grid_free(struct pmr_grid *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->cell[i]);
	free(g->cell);
	memset(g, 0, sizeof(*g));
}
