/*
 * cache.c: set-associative, LRU caches and TLBs for pmsim.
 *
 * A structure holds keys (address >> shift, so lines for caches and pages
 * for TLBs) in sets x ways with a 32-bit use stamp per way, together, so
 * that a probe of a big cache (a 2 MB L2 is 32 K sets) misses once.  Sets are
 * indexed by the low key bits; the number of sets is rounded down to a
 * power of two.  Timing lives in core.c: this file only answers hit or
 * miss and installs blocks.
 */
#include <stdlib.h>
#include <string.h>

#define PMR_SIM_INTERNAL
#include "sim/sim.h"

int
pmr_sim_cache_init(struct pmr_sim_cache *c, uint64_t units, unsigned ways,
    unsigned shift)
{
	uint64_t sets = units / ways;

	memset(c, 0, sizeof(*c));
	if (sets == 0)
		sets = 1;
	while (sets & (sets - 1))
		sets &= sets - 1;
	c->sets = (unsigned)sets;
	c->ways = ways;
	c->shift = shift;
	c->way = calloc(sets * ways, sizeof(*c->way));
	if (c->way == NULL) {
		pmr_sim_cache_fini(c);
		return PMR_ENOMEM;
	}
	return PMR_OK;
}

void
pmr_sim_cache_fini(struct pmr_sim_cache *c)
{
	free(c->way);
	c->way = NULL;
}

/* The ways of addr's set; its key (line + 1) in *key. */
static inline struct pmr_sim_way *
set_of(const struct pmr_sim_cache *c, uint64_t addr, uint64_t *key)
{
	*key = (addr >> c->shift) + 1;
	return c->way + (size_t)((*key - 1) & (c->sets - 1)) * c->ways;
}

/*
 * Looks addr up: the way that hits (*hit = 1), else, if install is set,
 * the way it fills (*hit = 0), else NULL.
 */
static inline struct pmr_sim_way *
access_way(struct pmr_sim_cache *c, uint64_t addr, int install, int *hit)
{
	uint64_t key;
	struct pmr_sim_way *t = set_of(c, addr, &key);
	unsigned w, victim = 0, h = ~0u;

	c->clock++;
	/* which way hits is random to the host: a select per way, no
	 * branch but the loop's (the ways of a cache are a constant);
	 * tags in a set are unique, so at most one way matches */
	for (w = 0; w < c->ways; w++)
		h = t[w].tag == key ? w : h;
	*hit = h != ~0u;
	if (*hit) {
		t[h].use = c->clock;
		return &t[h];
	}
	if (!install)
		return NULL;
	for (w = 0; w < c->ways; w++) {
		if (t[w].tag == 0) {
			victim = w;
			break;
		}
		if ((int32_t)(t[w].use - t[victim].use) < 0)
			victim = w;
	}
	t[victim].tag = key;
	t[victim].use = c->clock;
	t[victim].wp = 0;
	return &t[victim];
}

int
pmr_sim_cache_access(struct pmr_sim_cache *c, uint64_t addr, int install)
{
	int hit;

	access_way(c, addr, install, &hit);
	return hit;
}

struct pmr_sim_way *
pmr_sim_cache_way(struct pmr_sim_cache *c, uint64_t addr, int install,
    int *hit)
{
	return access_way(c, addr, install, hit);
}

struct pmr_sim_way *
pmr_sim_cache_probe(const struct pmr_sim_cache *c, uint64_t addr)
{
	uint64_t key;
	struct pmr_sim_way *t = set_of(c, addr, &key);
	unsigned w;

	for (w = 0; w < c->ways; w++)
		if (t[w].tag == key)
			return &t[w];
	return NULL;
}
