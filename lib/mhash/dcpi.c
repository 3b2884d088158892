/*
 * dcpi.c: DCPI's driver hash table and overflow buffers (SOSP '97 §4.2),
 * with the §5.4 design-space variants (associativity, swap-to-front,
 * size, hash function), as a trace-driven model: the paper's own §5.4
 * study replayed sample traces through a simulator of these structures.
 * See dcpi.h and mhash(1).
 *
 * Why one round-robin counter a table and not one a bucket: the paper
 * names "a mod-4 counter that is incremented on each eviction", and a
 * bucket is one full 64-byte line of four 16-byte entries, with no room
 * for a counter; the handler's per-CPU state (one more line) holds it.
 * So a bucket's victim depends on the evictions in other buckets too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/dcpi.h"

struct pmr_dcpi {
	struct pmr_dcpi_cfg c;
	uint32_t nbuckets;
	unsigned rr;		/* the mod-ways counter */
	struct pmr_dcpi_entry *tab;	/* nbuckets * ways */
	struct pmr_dcpi_entry *buf[2];	/* the overflow buffers */
	uint32_t nbuf;		/* entries in buf[cur] */
	unsigned cur;
	void (*sink)(void *, const struct pmr_dcpi_entry *, size_t);
	void *arg;
	struct pmr_dcpi_stats st;
};

static const char *const policy_names[] = { "rr", "swap-front", NULL };
static const char *const hash_names[] = { "mix", "xor", NULL };

const char *const *
pmr_dcpi_policy_names(void)
{
	return policy_names;
}

const char *const *
pmr_dcpi_hash_names(void)
{
	return hash_names;
}

void
pmr_dcpi_cfg_init(struct pmr_dcpi_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->entries = 16384;
	c->ways = 4;
	c->overflow = 8192;
	c->policy = PMR_DCPI_RR;
	c->hash = PMR_DCPI_HMIX;
}

int
pmr_dcpi_cfg_check(const struct pmr_dcpi_cfg *c, char *err, size_t errlen)
{
	if (c->ways < 1 || c->ways > PMR_DCPI_MAXWAYS) {
		snprintf(err, errlen, "ways: %u is not in 1..%u", c->ways,
		    PMR_DCPI_MAXWAYS);
		return -1;
	}
	if (c->entries < c->ways || c->entries % c->ways != 0) {
		snprintf(err, errlen, "entries: %u is not a multiple of the "
		    "%u ways", c->entries, c->ways);
		return -1;
	}
	if (c->entries > 1u << 28 || c->overflow < 1 ||
	    c->overflow > 1u << 28) {
		snprintf(err, errlen, "entries or overflow out of range");
		return -1;
	}
	if ((unsigned)c->policy > PMR_DCPI_SWAPFRONT ||
	    (unsigned)c->hash > PMR_DCPI_HXOR) {
		snprintf(err, errlen, "unknown policy or hash");
		return -1;
	}
	return 0;
}

uint64_t
pmr_dcpi_bytes(const struct pmr_dcpi_cfg *c)
{
	return ((uint64_t)c->entries + 2 * (uint64_t)c->overflow) *
	    PMR_DCPI_ENTRY_BYTES;
}

struct pmr_dcpi *
pmr_dcpi_new(const struct pmr_dcpi_cfg *c,
    void (*sink)(void *arg, const struct pmr_dcpi_entry *e, size_t n),
    void *arg, char *err, size_t errlen)
{
	struct pmr_dcpi *d;

	if (pmr_dcpi_cfg_check(c, err, errlen) != 0)
		return NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		goto nomem;
	d->c = *c;
	d->nbuckets = c->entries / c->ways;
	d->sink = sink;
	d->arg = arg;
	d->tab = calloc(c->entries, sizeof(*d->tab));
	d->buf[0] = calloc(c->overflow, sizeof(*d->buf[0]));
	d->buf[1] = calloc(c->overflow, sizeof(*d->buf[1]));
	if (d->tab == NULL || d->buf[0] == NULL || d->buf[1] == NULL) {
		pmr_dcpi_free(d);
		goto nomem;
	}
	return d;
nomem:
	snprintf(err, errlen, "%s", strerror(ENOMEM));
	return NULL;
}

void
pmr_dcpi_free(struct pmr_dcpi *d)
{
	if (d == NULL)
		return;
	free(d->tab);
	free(d->buf[0]);
	free(d->buf[1]);
	free(d);
}

uint32_t
pmr_dcpi_bucket(const struct pmr_dcpi *d, uint32_t pid, uint64_t pc,
    uint64_t ev)
{
	uint64_t h;

	if (d->c.hash == PMR_DCPI_HXOR)
		return (uint32_t)(((pc >> 2) ^ ev ^ (uint64_t)pid << 12) %
		    d->nbuckets);
	h = pc * 0x9e3779b97f4a7c15ull;
	h ^= (ev + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
	h ^= ((uint64_t)pid + 1) * 0x165667b19e3779f9ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	/* the high bits of h * nbuckets: uniform without a division */
	return (uint32_t)(((h >> 32) * d->nbuckets) >> 32);
}

const struct pmr_dcpi_entry *
pmr_dcpi_way(const struct pmr_dcpi *d, uint32_t b, unsigned way)
{
	return &d->tab[(size_t)b * d->c.ways + way];
}

/* Hands the current overflow buffer to the daemon and switches. */
static void
handoff(struct pmr_dcpi *d)
{
	if (d->nbuf == 0)
		return;
	if (d->sink != NULL)
		d->sink(d->arg, d->buf[d->cur], d->nbuf);
	d->cur ^= 1;
	d->nbuf = 0;
}

/* Moves the (valid) entry e into the overflow buffer. */
static void
evict(struct pmr_dcpi *d, const struct pmr_dcpi_entry *e)
{
	d->buf[d->cur][d->nbuf++] = *e;
	d->st.evictions++;
	d->st.records++;
	d->st.counted += e->count;
	if (d->nbuf == d->c.overflow) {
		d->st.handoffs++;
		handoff(d);
	}
}

int
pmr_dcpi_add(struct pmr_dcpi *d, uint32_t pid, uint64_t pc, uint64_t ev)
{
	unsigned w = d->c.ways, i;
	struct pmr_dcpi_entry *b, t;

	b = d->tab + (size_t)pmr_dcpi_bucket(d, pid, pc, ev) * w;
	d->st.samples++;
	for (i = 0; i < w; i++)
		if (b[i].count != 0 && b[i].pc == pc && b[i].ev == ev &&
		    b[i].pid == pid) {
			b[i].count++;
			d->st.hits++;
			if (d->c.policy == PMR_DCPI_SWAPFRONT && i > 0) {
				t = b[0];
				b[0] = b[i];
				b[i] = t;
			}
			return 1;
		}
	d->st.misses++;
	if (d->c.policy == PMR_DCPI_SWAPFRONT) {
		/* valid entries are packed at the front: the last way is
		 * the victim, or empty */
		if (b[w - 1].count != 0)
			evict(d, &b[w - 1]);
		memmove(b + 1, b, (w - 1) * sizeof(*b));
		i = 0;
	} else {
		for (i = 0; i < w && b[i].count != 0; i++)
			;
		if (i == w) {
			i = d->rr;
			d->rr = d->rr + 1 == w ? 0 : d->rr + 1;
			evict(d, &b[i]);
		}
	}
	b[i].pc = pc;
	b[i].ev = ev;
	b[i].pid = pid;
	b[i].count = 1;
	return 0;
}

void
pmr_dcpi_finish(struct pmr_dcpi *d)
{
	size_t i, n = d->c.entries;

	handoff(d);
	/* the table through the buffers, a buffer at a time */
	for (i = 0; i < n; i++) {
		if (d->tab[i].count == 0)
			continue;
		d->buf[d->cur][d->nbuf++] = d->tab[i];
		d->st.flushed++;
		d->st.records++;
		d->st.counted += d->tab[i].count;
		d->tab[i].count = 0;
		if (d->nbuf == d->c.overflow)
			handoff(d);
	}
	handoff(d);
}

const struct pmr_dcpi_stats *
pmr_dcpi_stats(const struct pmr_dcpi *d)
{
	return &d->st;
}
