/*
 * input.c: what pairs reads: the records of a stream, into a struct
 * pmr_pairs (and, with -f pmr, the others passed through to a writer),
 * and the cache geometry of --by=set.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pairs/report.h"

int
pmr_pairs_read(struct pmr_pairs *p, const char *path, struct pmr_writer *w,
    const char *output, uint64_t *nrec, char *err, size_t errlen)
{
	struct pmr_reader *r;
	struct pmr_rec rec;
	const char *name = path ? path : "-";
	int e, rc;

	if ((r = pmr_reader_open(path, 0, &e)) == NULL) {
		snprintf(err, errlen, "cannot open '%s': %s", name,
		    pmr_strerror(e));
		return -1;
	}
	while ((rc = pmr_reader_next(r, &rec)) == 1) {
		++*nrec;
		if ((e = pmr_pairs_add(p, &rec)) < 0) {
			snprintf(err, errlen, "'%s': %s", name,
			    pmr_pairs_errmsg(p));
			break;
		}
		if (e == 0 && w != NULL &&
		    pmr_write_raw(w, rec.type, rec.p, rec.len) != 0) {
			snprintf(err, errlen, "%s: %s", pmr_outname(output),
			    pmr_writer_errmsg(w));
			e = -1;
			break;
		}
	}
	if (e >= 0 && rc < 0) {
		snprintf(err, errlen, "'%s': %s", name, pmr_reader_errmsg(r));
		e = -1;
	}
	pmr_reader_close(r);
	return e < 0 ? -1 : 0;
}

int
pmr_pairs_geom_parse(struct pmr_pairs_geom *g, const char *arg)
{
	long long v[3] = { 0, 0, 0 };
	const long long max[3] = { 1LL << 40, 1024, 1 << 20 };
	unsigned long long sz, ways, line;
	const char *e = NULL;
	char buf[64], *tok = buf, *c;
	int i;

	/* each part strictly, in range: sscanf's %llu took "-1" as 2^64-1 */
	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (i = 0; i < 3 && e == NULL; i++) {
		c = strchr(tok, ',');
		if ((c == NULL) != (i == 2))
			return -1;
		if (c != NULL)
			*c = '\0';
		v[i] = pmr_strtonum(tok, 1, max[i], &e);
		tok = c != NULL ? c + 1 : NULL;
	}
	sz = (unsigned long long)v[0];
	ways = (unsigned long long)v[1];
	line = (unsigned long long)v[2];
	if (e != NULL || (line & (line - 1)) != 0 || sz % (ways * line) != 0)
		return -1;
	g->size = sz;
	g->ways = (uint32_t)ways;
	g->line = (uint32_t)line;
	return 0;
}
