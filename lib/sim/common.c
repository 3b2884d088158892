/*
 * common.c: what every stage of the simulator calls, below them all:
 * errors, records out (pmr_writer and the hook; EVENT), the node pool of
 * the wake-up lists and wheel, the per-pc table look-up, and the random
 * stream (xoshiro256**) that the samplers draw from.
 */
#include "sim/sim_internal.h"
#include "util/mix.h"
/* Returns n zeroed bytes on a cache-line boundary, or NULL. */
void *
sim_zalloc64(size_t n)
{
	void *p;

	if (posix_memalign(&p, 64, n) != 0)
		return NULL;
	memset(p, 0, n);
	return p;
}

int
sim_fail(struct pmr_sim *s, int code, const char *fmt, ...)
{
	va_list ap;

	if (s->err == 0) {
		va_start(ap, fmt);
		vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
		va_end(ap);
		s->err = code;
	}
	return code;
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256**: the run's only random source, seeded by --seed. */
uint64_t
sim_rnd(struct pmr_sim *s)
{
	uint64_t *r = s->rng, res = rotl(r[1] * 5, 7) * 9, t = r[1] << 17;

	r[2] ^= r[0];
	r[3] ^= r[1];
	r[1] ^= r[2];
	r[0] ^= r[3];
	r[2] ^= t;
	r[3] = rotl(r[3], 45);
	return res;
}

void
sim_seed_rng(struct pmr_sim *s, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		s->rng[i] = pmr_splitmix64(&seed);
}

/* Returns a uniform double in (0, 1). */
double
sim_rnd01(struct pmr_sim *s)
{
	return ((double)(sim_rnd(s) >> 11) + 0.5) / 9007199254740992.0;
}

/*
 * Doubles the pool, whose free list is empty; returns 0 or -1.  Kept out
 * of line so that node_new(), called several times per instruction, stays
 * a few instructions long.
 */
int __attribute__((noinline))
sim_node_grow(struct pmr_sim *s)
{
	uint32_t cap = s->ncap * 2, i;
	struct node *nn = realloc(s->node, cap * sizeof(*nn));

	if (nn == NULL)
		return -1;
	s->node = nn;
	for (i = s->ncap; i < cap; i++)
		s->node[i].next = i + 1 < cap ? (int32_t)(i + 1) : -1;
	s->nfree = (int32_t)s->ncap;
	s->ncap = cap;
	return 0;
}

void
sim_node_free(struct pmr_sim *s, int32_t n)
{
	s->node[n].next = s->nfree;
	s->nfree = n;
}

uint32_t
sim_pc_hash(uint64_t pc)
{
	pc ^= pc >> 29;
	pc *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(pc ^ (pc >> 32));
}

/* Returns the index of pc, or NONE32 if it has none yet. */
uint32_t
sim_pt_find(struct pmr_sim *s, uint64_t pc)
{
	uint32_t m = s->pcs_hash_cap - 1, i = sim_pc_hash(pc) & m;
	uint32_t c = (uint32_t)(pc ^ (pc >> 12)) & (PCC - 1);

	if (s->pc_cache[c].x != 0 && s->pc_cache[c].pc == pc)
		return s->pc_cache[c].x - 1;
	for (;;) {
		uint32_t x = s->pcs_hash[i];

		if (x == 0)
			return NONE32;
		if (s->pcs[x - 1].pc == pc) {
			s->pc_cache[c].pc = pc;
			s->pc_cache[c].x = x;
			return x - 1;
		}
		i = (i + 1) & m;
	}
}

void
sim_emit(struct pmr_sim *s, uint32_t type, const void *rec)
{
	const struct pmr_rtype *t;
	unsigned char *p;
	uint32_t n;

	if (s->hook != NULL)
		s->hook(s->hookarg, type, rec);
	if (s->w == NULL || s->err != 0)
		return;
	/* The generic field codec (SIG.bits is the one variable field). */
	t = pmr_sim_rtype(type);
	n = (uint32_t)pmr_fields_size(t, rec);
	if ((p = pmr_write_reserve(s->w, type, n)) == NULL) {
		sim_fail(s, PMR_EIO, "%s", pmr_writer_errmsg(s->w));
		return;
	}
	pmr_fields_encode(t, rec, p);
}

void
sim_emit_event(struct pmr_sim *s, unsigned kind, uint64_t pc, uint64_t v)
{
	unsigned char *p;

	if (s->hook != NULL) {
		struct pmr_event ev = { (uint8_t)kind, pc, v };

		s->hook(s->hookarg, PMR_REC_EVENT, &ev);
	}
	if (s->w == NULL || s->err != 0)
		return;
	p = pmr_write_reserve(s->w, PMR_REC_EVENT, PMR_EVENT_SIZE);
	if (p == NULL) {
		sim_fail(s, PMR_EIO, "%s", pmr_writer_errmsg(s->w));
		return;
	}
	pmr_event_put(p, kind, pc, v);
}
