/*
 * trace.c: the one reader interface over every trace format (trace.h).
 *
 * pmr_trace_open() picks the source from the content and the name: a zip
 * archive or a raw/compressed stream that opens with a drmemtrace HEADER
 * entry is DynamoRIO drmemtrace, a name containing ".champsim" is ChampSim
 * (which has no magic), and anything else must be a pmr stream.  Each
 * source (champsim.c, drmem.c, pmr.c) fills the same struct pmr_dinsn and
 * keeps its static instructions in the shared table of decode.c, below
 * both this file and the sources (decode.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode.h"

static const char *const fmt_names[] = { "auto", "pmr", "champsim",
	"drmemtrace", "qemu" };

int
pmr_trace_format_byname(const char *name)
{
	unsigned i;

	for (i = 0; i <= PMR_TF_DRMEM; i++)	/* qemu: a pipe, not a file */
		if (strcmp(name, fmt_names[i]) == 0)
			return (int)i;
	if (strcmp(name, "drmem") == 0)
		return PMR_TF_DRMEM;
	return -1;
}

const char *
pmr_trace_format_name(int f)
{
	if (f < 0 || f > PMR_TF_QEMU)
		return "?";
	return fmt_names[f];
}

/*
 * Guesses the format of path from its first bytes and its name.  Returns
 * the format, or a negative code with a message in t.
 */
static int
detect(struct pmr_trace *t, const char *path)
{
	static const unsigned char pmr_magic7[7] = { 0x89, 'P', 'M', 'R',
		'\r', '\n', 0x1a };
	unsigned char b[12];
	const unsigned char *p;
	struct pmr_in *in;
	size_t avail = 0, n;
	int err = 0, fmt = -1;
	FILE *f;

	if (path != NULL && strcmp(path, "-") != 0) {
		if ((f = fopen(path, "rb")) == NULL)
			return pmr_trace_fail(t, PMR_EIO, "cannot open '%s': %s",
			    path, strerror(errno));
		n = fread(b, 1, 4, f);
		fclose(f);
		if (n == 4 && memcmp(b, "PK\3\4", 4) == 0)
			return PMR_TF_DRMEM;
	}
	/* Look at the decoded bytes (stdin cannot be reopened: pmr only). */
	if (path == NULL || strcmp(path, "-") == 0)
		return PMR_TF_PMR;
	if ((in = pmr_in_open(path, &err)) == NULL)
		return pmr_trace_fail(t, err, "cannot open '%s': %s", path,
		    pmr_strerror(err));
	p = pmr_in_peek(in, 12, &avail, &err);
	if (p == NULL)
		err = pmr_trace_fail(t, err, "'%s': %s", path,
		    pmr_in_errmsg(in));
	else if (avail >= 7 && memcmp(p, pmr_magic7, 7) == 0)
		fmt = PMR_TF_PMR;	/* whatever the name says */
	else if (strstr(path, ".champsim") != NULL)
		fmt = PMR_TF_CHAMPSIM;	/* it has no magic of its own */
	else if (avail >= 12 && pmr_le16(p) == 25 && pmr_le64(p + 4) < 4096)
		fmt = PMR_TF_DRMEM;	/* drmemtrace HEADER entry, version */
	else
		err = pmr_trace_fail(t, PMR_EFORMAT, "'%s': unknown trace "
		    "format (not a pmr stream or a drmemtrace; name a "
		    "ChampSim trace *.champsim* or give its format)", path);
	pmr_in_close(in);
	return fmt >= 0 ? fmt : err;
}

void
pmr_trace_set_side(struct pmr_trace *t,
    void (*fn)(void *ctx, const struct pmr_rec *rec), void *ctx)
{
	t->side = fn;
	t->sidectx = ctx;
}

int
pmr_trace_detect(const char *path)
{
	struct pmr_trace t;

	memset(&t, 0, sizeof(t));
	return detect(&t, path);
}

struct pmr_trace *
pmr_trace_open(const char *path, int fmt, int *err, char *errbuf,
    size_t errlen)
{
	struct pmr_trace *t;
	int r;

	if (errbuf != NULL && errlen > 0)
		errbuf[0] = '\0';
	if ((t = pmr_trace_new(err, errbuf, errlen)) == NULL)
		return NULL;
	if (fmt == PMR_TF_AUTO)
		fmt = detect(t, path);
	switch (fmt) {
	case PMR_TF_PMR:
		r = pmr_trace_pmr_open(t, path);
		break;
	case PMR_TF_CHAMPSIM:
		r = pmr_trace_champsim_open(t, path);
		break;
	case PMR_TF_DRMEM:
		r = pmr_trace_drmem_open(t, path);
		break;
	default:
		r = fmt < 0 ? fmt : pmr_trace_fail(t, PMR_EINVAL,
		    "unknown trace format %d", fmt);
	}
	if (r < 0) {
		*err = r;
		if (errbuf != NULL)
			pmr_msg(errbuf, errlen, "%s", t->errmsg);
		pmr_sitab_free(t->tab);
		free(t);
		return NULL;
	}
	t->fmt = fmt;
	t->err = 0;
	t->errmsg[0] = '\0';
	return t;
}

/* pmr_trace_next() of the sources other than pmr. */
static int __attribute__((noinline))
trace_next_ops(struct pmr_trace *t, struct pmr_dinsn *di)
{
	int r;

	if (t->err != 0)
		return t->err;
	r = t->ops->next(t, di);
	if (r == 1)
		di->seq = t->seq++;
	else if (r < 0 && t->err == 0)
		pmr_trace_fail(t, r, "%s", pmr_strerror(r));
	return r;
}

int
pmr_trace_next(struct pmr_trace *t, struct pmr_dinsn *di)
{
	/* the one call per instruction of pmsim and the converters: the
	 * native source keeps err and seq itself, and a direct jump (here
	 * without a frame) spares the indirect call */
	if (t->ops == &pmr_trace_pmr_ops)
		return pmr_trace_pmr_next(t, di);
	return trace_next_ops(t, di);
}

const char *
pmr_trace_errmsg(const struct pmr_trace *t)
{
	return t->errmsg;
}

const uint64_t *
pmr_trace_counter(const struct pmr_trace *t)
{
	return &t->seq;
}

int
pmr_trace_format(const struct pmr_trace *t)
{
	return t->fmt;
}

uint32_t
pmr_trace_nsinsn(const struct pmr_trace *t)
{
	return pmr_sitab_count(t->tab);
}

const struct pmr_sinsn *
pmr_trace_sinsn(const struct pmr_trace *t, uint32_t id)
{
	return pmr_sitab_get(t->tab, id);
}
