/*
 * trace.c: the one reader interface over every trace format (trace.h).
 *
 * pmr_trace_open() picks the source from the content and the name: a zip
 * archive or a raw/compressed stream that opens with a drmemtrace HEADER
 * entry is DynamoRIO drmemtrace, a name containing ".champsim" is ChampSim
 * (which has no magic), and anything else must be a pmr stream.  Each
 * source (champsim.c, drmem.c, pmr.c) fills the same
 * struct pmr_dinsn and keeps its static instructions in the shared table
 * implemented here: slabs that never move (so di->si stays valid until
 * close) and an open-addressing hash from pc to the current instruction at
 * that pc.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PMR_TRACE_INTERNAL
#include "stream/pmr_internal.h"
#include "trace/trace.h"

#define SLAB_SHIFT 12			/* 4096 instructions per slab */
#define SLAB_N (1u << SLAB_SHIFT)
#define SITAB_MAX (1u << 24)		/* static instructions per trace */

/*
 * A slab slot: one static instruction on a cache-line boundary, so that
 * what a reader and the simulator read of each one (up to dst[],
 * trace.h) is one line, at the cost of 24 bytes of padding.
 */
struct sislot {
	struct pmr_sinsn si;
} __attribute__((aligned(64)));

struct pmr_sitab {
	struct sislot **slab;		/* nslab slabs of SLAB_N */
	uint32_t nslab, capslab;
	uint32_t n;			/* instructions defined */
	struct pmr_sinsn **hash;	/* hcap slots, NULL = empty */
	uint32_t hcap;			/* power of 2 */
	uint32_t hused;
	uint32_t gen;			/* pmr_sitab_gen() */
};

struct pmr_sitab *
pmr_sitab_new(void)
{
	struct pmr_sitab *tab;

	if ((tab = calloc(1, sizeof(*tab))) == NULL)
		return NULL;
	tab->hcap = 4096;
	if ((tab->hash = calloc(tab->hcap, sizeof(*tab->hash))) == NULL) {
		free(tab);
		return NULL;
	}
	return tab;
}

void
pmr_sitab_free(struct pmr_sitab *tab)
{
	uint32_t i;

	if (tab == NULL)
		return;
	for (i = 0; i < tab->nslab; i++)
		free(tab->slab[i]);
	free(tab->slab);
	free(tab->hash);
	free(tab);
}

static inline uint32_t
pc_hash(uint64_t pc)
{
	pc ^= pc >> 29;
	pc *= 0xbf58476d1ce4e5b9ull;
	pc ^= pc >> 32;
	return (uint32_t)pc;
}

struct pmr_sinsn *
pmr_sitab_lookup(struct pmr_sitab *tab, uint64_t pc)
{
	uint32_t mask = tab->hcap - 1, i = pc_hash(pc) & mask;
	struct pmr_sinsn *s;

	while ((s = tab->hash[i]) != NULL) {
		if (s->pc == pc)
			return s;
		i = (i + 1) & mask;
	}
	return NULL;
}

/* Puts s in the hash, replacing the entry of the same pc. */
static void
hash_put(struct pmr_sinsn **h, uint32_t cap, struct pmr_sinsn *s, int *added)
{
	uint32_t mask = cap - 1, i = pc_hash(s->pc) & mask;

	while (h[i] != NULL) {
		if (h[i]->pc == s->pc) {
			h[i] = s;
			*added = 0;
			return;
		}
		i = (i + 1) & mask;
	}
	h[i] = s;
	*added = 1;
}

static int
hash_grow(struct pmr_sitab *tab)
{
	struct pmr_sinsn **nh;
	uint32_t i, ncap = tab->hcap * 2;
	int added;

	if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
		return -1;
	for (i = 0; i < tab->hcap; i++)
		if (tab->hash[i] != NULL)
			hash_put(nh, ncap, tab->hash[i], &added);
	free(tab->hash);
	tab->hash = nh;
	tab->hcap = ncap;
	return 0;
}

struct pmr_sinsn *
pmr_sitab_add(struct pmr_sitab *tab, const struct pmr_sinsn *si)
{
	struct pmr_sinsn *s;
	struct sislot **ns;
	void *slab;
	uint32_t k;
	int added;

	if (tab->n >= SITAB_MAX)
		return NULL;
	k = tab->n >> SLAB_SHIFT;
	if (k == tab->nslab) {
		if (tab->nslab == tab->capslab) {
			uint32_t nc = tab->capslab ? tab->capslab * 2 : 16;

			if ((ns = realloc(tab->slab, nc * sizeof(*ns))) == NULL)
				return NULL;
			tab->slab = ns;
			tab->capslab = nc;
		}
		if (posix_memalign(&slab, 64, SLAB_N * sizeof(**tab->slab))
		    != 0)
			return NULL;
		tab->slab[k] = slab;
		tab->nslab++;
	}
	if (2 * (tab->hused + 1) > tab->hcap && hash_grow(tab) < 0)
		return NULL;
	s = &tab->slab[k][tab->n & (SLAB_N - 1)].si;
	*s = *si;
	s->id = tab->n++;
	hash_put(tab->hash, tab->hcap, s, &added);
	tab->hused += (uint32_t)added;
	tab->gen += !added;	/* an older mapping of the pc is gone */
	return s;
}

void
pmr_sitab_clear_map(struct pmr_sitab *tab)
{
	memset(tab->hash, 0, tab->hcap * sizeof(*tab->hash));
	tab->hused = 0;
	tab->gen++;
}

uint32_t
pmr_sitab_gen(const struct pmr_sitab *tab)
{
	return tab->gen;
}

uint32_t
pmr_sitab_count(const struct pmr_sitab *tab)
{
	return tab->n;
}

const struct pmr_sinsn *
pmr_sitab_get(const struct pmr_sitab *tab, uint32_t id)
{
	if (id >= tab->n)
		return NULL;
	return &tab->slab[id >> SLAB_SHIFT][id & (SLAB_N - 1)].si;
}

int
pmr_trace_fail(struct pmr_trace *t, int code, const char *fmt, ...)
{
	va_list ap;

	if (t->err != 0)
		return t->err;	/* keep the first message */
	va_start(ap, fmt);
	vsnprintf(t->errmsg, sizeof(t->errmsg), fmt, ap);
	va_end(ap);
	t->err = code;
	return code;
}

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
		    err == PMR_EIO ? strerror(errno) : pmr_strerror(err));
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
	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->tab = pmr_sitab_new()) == NULL) {
		free(t);
		*err = PMR_ENOMEM;
		if (errbuf != NULL)
			pmr_msg(errbuf, errlen, "out of memory");
		return NULL;
	}
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

void
pmr_trace_close(struct pmr_trace *t)
{
	if (t == NULL)
		return;
	if (t->ops != NULL && t->ops->close != NULL)
		t->ops->close(t);
	pmr_sitab_free(t->tab);
	free(t);
}
