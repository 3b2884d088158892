/*
 * decode.c: what every trace source decodes into and reports through
 * (decode.h): the reader object's life, its sticky error, and the table
 * of static instructions, made of slabs that never move (so di->si stays
 * valid until close) and an open-addressing hash from pc to the current
 * instruction at that pc.  It calls nothing else in lib/trace: trace.c
 * and the sources (champsim.c, drmem.c, pmr.c, qemu.c) call into it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode.h"

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

struct pmr_trace *
pmr_trace_new(int *err, char *errbuf, size_t errlen)
{
	struct pmr_trace *t;

	if ((t = calloc(1, sizeof(*t))) == NULL ||
	    (t->tab = pmr_sitab_new()) == NULL) {
		free(t);
		*err = PMR_ENOMEM;
		if (errbuf != NULL)
			pmr_msg(errbuf, errlen, "out of memory");
		return NULL;
	}
	return t;
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
