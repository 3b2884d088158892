/*
 * mhash.c: the Multi-Hash profiler model and its baselines (Narayanasamy et al., HPCA-9).
 *
 * One struct pmr_mhash runs one algorithm over a stream of (pc, value)
 * events cut into intervals of L events.  The multi-hash model follows the
 * pseudocode of the paper's §5.2 and §6.1 exactly: a tuple found in the accumulator is counted
 * there only (shielding); otherwise its N counters are updated (plainly or
 * conservatively) and, when every one reaches T, it is promoted into an
 * empty accumulator entry, else into a replaceable (retained) one, else
 * dropped.  At the end of an interval the non-replaceable entries are the
 * candidates, the hash counters are zeroed, and the accumulator is either
 * emptied (P0) or retained (P1).
 *
 * Speed: the paper's hash is linear over XOR (randomize works byte by byte
 * and xor_fold is linear), so the folded index of every table is the XOR
 * of 16 per-byte contributions.  We precompute, for each of the 16 byte
 * positions of (pc, value) and each byte value, the folded contributions
 * of all tables packed into 8-, 16- or 32-bit lanes of 64-bit words; one
 * event then costs 16 loads for up to 4 tables (8 when S <= 256).
 * Tabulation hashing has the same shape with random words in place of
 * shifted S-box entries.
 * Accumulator lookups go through an open-addressing index, so the fully
 * associative search is O(1).  Nothing is allocated per event.
 *
 * Choices the paper leaves open are marked "choice" in comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/mhash.h"
#include "util/mix.h"

/* --- an open-addressing map from tuples to 64-bit values ----------------- */

struct mh_slot {
	uint64_t pc, val;
	uint64_t v;
	uint32_t used;
	uint32_t pad;
};

struct mh_map {
	struct mh_slot *s;
	uint64_t mask;		/* capacity - 1, capacity a power of two */
	unsigned shift;		/* 64 - log2(capacity) */
	uint64_t n;		/* used slots */
	int grow;		/* may grow; else sized for its maximum */
};

/* Returns the home slot of (pc, val): multiplicative (Fibonacci) hashing,
 * whose high bits are well mixed; two multiplies keep the lookup short. */
static inline uint64_t
mh_home(const struct mh_map *m, uint64_t pc, uint64_t val)
{
	return ((pc * 0x9e3779b97f4a7c15ull ^ val) * 0xd6e8feb86659fd93ull) >>
	    m->shift;
}

static int
map_init(struct mh_map *m, uint64_t want, int grow)
{
	uint64_t cap = 16;

	while (cap < 2 * want)
		cap <<= 1;
	m->s = calloc(cap, sizeof(*m->s));
	if (m->s == NULL)
		return -1;
	m->mask = cap - 1;
	m->shift = 64 - (unsigned)__builtin_ctzll(cap);
	m->n = 0;
	m->grow = grow;
	return 0;
}

static void
map_free(struct mh_map *m)
{
	free(m->s);
	m->s = NULL;
}

static void
map_clear(struct mh_map *m)
{
	if (m->n != 0)
		memset(m->s, 0, (m->mask + 1) * sizeof(*m->s));
	m->n = 0;
}

static inline struct mh_slot *
map_find(const struct mh_map *m, uint64_t pc, uint64_t val)
{
	uint64_t i = mh_home(m, pc, val);
	struct mh_slot *s;

	for (;;) {
		s = &m->s[i];
		if (!s->used)
			return NULL;
		if (s->pc == pc && s->val == val)
			return s;
		i = (i + 1) & m->mask;
	}
}

static int
map_rehash(struct mh_map *m)
{
	struct mh_slot *old = m->s, *s;
	uint64_t i, j, oldcap = m->mask + 1;

	m->s = calloc(2 * oldcap, sizeof(*m->s));
	if (m->s == NULL) {
		m->s = old;
		return -1;
	}
	m->mask = 2 * oldcap - 1;
	m->shift--;
	for (i = 0; i < oldcap; i++) {
		if (!old[i].used)
			continue;
		j = mh_home(m, old[i].pc, old[i].val);
		while (m->s[j].used)
			j = (j + 1) & m->mask;
		s = &m->s[j];
		*s = old[i];
	}
	free(old);
	return 0;
}

/* Returns the slot of (pc, val), inserting it with v = 0 if absent; NULL
 * when growing fails.  *isnew says whether it was inserted. */
static inline struct mh_slot *
map_get(struct mh_map *m, uint64_t pc, uint64_t val, int *isnew)
{
	uint64_t i;
	struct mh_slot *s;

	if (m->grow && 2 * (m->n + 1) > m->mask + 1 && map_rehash(m) != 0)
		return NULL;
	i = mh_home(m, pc, val);
	for (;;) {
		s = &m->s[i];
		if (!s->used)
			break;
		if (s->pc == pc && s->val == val) {
			*isnew = 0;
			return s;
		}
		i = (i + 1) & m->mask;
	}
	s->pc = pc;
	s->val = val;
	s->v = 0;
	s->used = 1;
	m->n++;
	*isnew = 1;
	return s;
}

/* Deletes slot s by backward shifting (linear probing keeps no tombs). */
static void
map_del(struct mh_map *m, struct mh_slot *s)
{
	uint64_t i = (uint64_t)(s - m->s), j = i, k;

	for (;;) {
		j = (j + 1) & m->mask;
		if (!m->s[j].used)
			break;
		k = mh_home(m, m->s[j].pc, m->s[j].val);
		/* Move j into the hole i unless k lies cyclically in (i, j]. */
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && (k <= i && k > j))) {
			m->s[i] = m->s[j];
			i = j;
		}
	}
	m->s[i].used = 0;
	m->n--;
}

/* --- random numbers: splitmix64 ------------------------------------------- */

static inline uint64_t
splitmix64(uint64_t *x)
{
	return pmr_splitmix64(x);
}

/* --- the model ----------------------------------------------------------- */

struct mh_ent {
	uint64_t pc, val;
	uint64_t count;
	uint64_t born;		/* insertion time (fifo victim) */
	uint64_t hit;		/* last hit time (lru victim) */
	uint32_t hpos;		/* heap position (SS, CM store) */
	uint8_t valid, repl;
};

struct pmr_mhash {
	struct pmr_mhash_cfg c;
	uint64_t pos;		/* events in the open interval */
	uint64_t next;		/* index of the open interval */
	uint64_t last_events;	/* events of the interval just closed */
	uint32_t cmax;		/* counter saturation value */
	int need_clear;		/* exact map holds the closed interval */

	/* Hashing. */
	unsigned nt;		/* tables (N, or the CM depth) */
	uint32_t sz;		/* counters per table */
	unsigned fold;		/* fold width: log2 S, or 32 for mod S */
	unsigned lw;		/* lane width in bits */
	unsigned lanes;		/* lanes per word */
	unsigned nw;		/* words per event */
	uint64_t lmask;		/* lane mask */
	int pow2;
	int flip;		/* paper hash: 8 shared positions, bswap(pc) */
	size_t voff;		/* offset of the value positions in tab */
	uint64_t *tab;		/* [8 or 16 positions][256 bytes][nw words] */
	uint8_t (*sbox)[256];	/* paper hash S-boxes, one per table */
	uint32_t *ctr;		/* nt * sz counters */
	struct mh_map xctr;	/* hash "exact": one counter per tuple */

	/* Accumulator / baseline store. */
	uint32_t na;		/* entries */
	struct mh_ent *ent;
	uint32_t *freel, nfree;
	uint32_t *heap, nheap;
	uint32_t nrepl;
	struct mh_map ix;	/* tuple -> entry */
	struct mh_map evicted;	/* tuples evicted this interval */
	uint64_t clock, rng;

	/* Exact profiler. */
	struct mh_map cnt;

	/* Results of the interval just closed. */
	struct pmr_mhash_cand *res;
	size_t nres, rescap;
	struct pmr_mhash_stats cur, is, tot;
};

static const char *const presets[] = {
	"paper-mh-10k", "paper-mh-1m", "paper-bsh-10k", "paper-bsh-1m",
	"hpca03-1pct", "hpca03-01pct", "hpca03-bsh-1pct", "hpca03-bsh-01pct",
	NULL
};

void
pmr_mhash_cfg_init(struct pmr_mhash_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->algo = PMR_MHASH_MH;
	c->interval = 10000;
	c->theta_ppb = PMR_MHASH_PPB / 100;
	c->entries = 2048;
	c->tables = 4;
	c->cbits = 24;
	c->cu = 1;
	c->reset = 0;
	c->retain = 1;
	c->hash = PMR_MHASH_HPAPER;
	c->victim = PMR_MHASH_VLOWEST;
	c->acc_init = PMR_MHASH_IEST;
	c->seed = 0;
}

const char *const *
pmr_mhash_presets(void)
{
	return presets;
}

int
pmr_mhash_preset(struct pmr_mhash_cfg *c, const char *name)
{
	int big, bsh;

	if (strcmp(name, "paper-mh-10k") == 0 ||
	    strcmp(name, "hpca03-1pct") == 0)
		big = 0, bsh = 0;
	else if (strcmp(name, "paper-mh-1m") == 0 ||
	    strcmp(name, "hpca03-01pct") == 0)
		big = 1, bsh = 0;
	else if (strcmp(name, "paper-bsh-10k") == 0 ||
	    strcmp(name, "hpca03-bsh-1pct") == 0)
		big = 0, bsh = 1;
	else if (strcmp(name, "paper-bsh-1m") == 0 ||
	    strcmp(name, "hpca03-bsh-01pct") == 0)
		big = 1, bsh = 1;
	else
		return -1;
	c->algo = PMR_MHASH_MH;
	c->interval = big ? 1000000 : 10000;
	c->theta_ppb = big ? PMR_MHASH_PPB / 1000 : PMR_MHASH_PPB / 100;
	c->entries = 2048;
	c->cbits = 24;
	c->acc = 0;
	c->retain = 1;
	if (bsh) {		/* best single hash: N=1, R1, P1 */
		c->tables = 1;
		c->cu = 0;
		c->reset = 1;
	} else {		/* best multi-hash: N=4, C1, R0, P1 */
		c->tables = 4;
		c->cu = 1;
		c->reset = 0;
	}
	return 0;
}

int
pmr_mhash_parse_pct(const char *s, uint64_t *ppb)
{
	uint64_t ip = 0, fp = 0, scale = PMR_MHASH_PPB / 100;
	int nd = 0, nf = 0;

	while (*s >= '0' && *s <= '9') {
		ip = ip * 10 + (uint64_t)(*s++ - '0');
		if (ip > 100)
			return -1;
		nd++;
	}
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (++nf > 7)
				return -1;
			fp = fp * 10 + (uint64_t)(*s++ - '0');
		}
	}
	if (*s == '%')
		s++;
	if (*s != '\0' || nd + nf == 0)
		return -1;
	while (nf < 7) {
		fp *= 10;
		nf++;
	}
	/* 1% = 10^7 ppb, and 7 decimals of a percent are 1 ppb each. */
	*ppb = ip * scale + fp;
	if (*ppb == 0 || *ppb > PMR_MHASH_PPB)
		return -1;
	return 0;
}

uint64_t
pmr_mhash_threshold(uint64_t interval, uint64_t theta_ppb)
{
	unsigned __int128 p = (unsigned __int128)interval * theta_ppb;

	return (uint64_t)((p + PMR_MHASH_PPB - 1) / PMR_MHASH_PPB);
}

const char *
pmr_mhash_algo_name(enum pmr_mhash_algo a)
{
	switch (a) {
	case PMR_MHASH_MH:
		return "mh";
	case PMR_MHASH_SS:
		return "ss";
	case PMR_MHASH_CMCU:
		return "cmcu";
	case PMR_MHASH_MG:
		return "mg";
	case PMR_MHASH_EXACT:
		return "exact";
	}
	return "?";
}

int
pmr_mhash_algo_parse(const char *s, enum pmr_mhash_algo *a)
{
	static const enum pmr_mhash_algo all[] = { PMR_MHASH_MH, PMR_MHASH_SS,
		PMR_MHASH_CMCU, PMR_MHASH_MG, PMR_MHASH_EXACT };
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(s, pmr_mhash_algo_name(all[i])) == 0) {
			*a = all[i];
			return 0;
		}
	return -1;
}

static int
ispow2(uint64_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

static unsigned
cbytes(const struct pmr_mhash_cfg *c)
{
	return (c->cbits + 7) / 8;
}

/* Bytes of one key+count entry of a baseline (SS, MG): the paper's 10 B or
 * two 64-bit fields plus a counter. */
static double
kv_bytes(const struct pmr_mhash_cfg *c)
{
	return c->exact_bytes ? (128.0 + c->cbits) / 8 : 10.0;
}

/* Bytes of one accumulator-like entry (with valid and replaceable bits). */
static double
acc_entry_bytes(const struct pmr_mhash_cfg *c)
{
	return c->exact_bytes ? (128.0 + c->cbits + 2) / 8 : 10.0;
}

void
pmr_mhash_area(const struct pmr_mhash_cfg *c, struct pmr_mhash_area *a)
{
	uint32_t acc = c->acc;

	memset(a, 0, sizeof(*a));
	a->hash_bytes = (uint64_t)c->entries * cbytes(c);
	a->acc_entry_bits = 64 + 64 + c->cbits + 2;
	a->acc_bytes = (double)acc * a->acc_entry_bits / 8;
	a->paper_acc_bytes = (uint64_t)acc * 10;
	a->total = (double)a->hash_bytes + a->acc_bytes;
	a->paper_total = a->hash_bytes + a->paper_acc_bytes;
	switch (c->algo) {
	case PMR_MHASH_MH:
		a->algo_bytes = c->exact_bytes ? a->total :
		    (double)a->paper_total;
		break;
	case PMR_MHASH_SS:
	case PMR_MHASH_MG:
		a->algo_bytes = c->k * kv_bytes(c);
		break;
	case PMR_MHASH_CMCU:
		a->algo_bytes = (double)c->tables * c->size * cbytes(c) +
		    acc * acc_entry_bytes(c);
		break;
	case PMR_MHASH_EXACT:
		a->algo_bytes = 0;
		break;
	}
}

static void
msg(char *err, size_t len, const char *s)
{
	if (err != NULL && len > 0) {
		strncpy(err, s, len - 1);
		err[len - 1] = '\0';
	}
}

int
pmr_mhash_cfg_finish(struct pmr_mhash_cfg *c, char *err, size_t errlen)
{
	double counters, store;

	if (c->interval < 1 || c->interval > ((uint64_t)1 << 40)) {
		msg(err, errlen, "interval must be in 1..2^40 events");
		return -1;
	}
	if (c->theta_ppb == 0 || c->theta_ppb > PMR_MHASH_PPB) {
		msg(err, errlen, "threshold must be in (0, 100] percent");
		return -1;
	}
	if (c->cbits < 1 || c->cbits > 32) {
		msg(err, errlen, "counter bits must be in 1..32");
		return -1;
	}
	if (c->tables < 1 || c->tables > PMR_MHASH_MAXTABLES) {
		msg(err, errlen, "tables must be in 1..64");
		return -1;
	}
	c->thresh = pmr_mhash_threshold(c->interval, c->theta_ppb);
	if (c->acc == 0) {
		uint64_t a = PMR_MHASH_PPB / c->theta_ppb;	/* floor(1/θ) */
		c->acc = a > (1u << 24) ? 1u << 24 : (uint32_t)a;
	}
	if (c->acc > (1u << 24)) {
		msg(err, errlen, "accumulator must have at most 2^24 entries");
		return -1;
	}
	if (c->entries < c->tables || c->entries % c->tables != 0) {
		msg(err, errlen,
		    "hash counters must be a multiple of the number of tables");
		return -1;
	}
	if (c->entries > (1u << 30)) {
		msg(err, errlen, "at most 2^30 hash counters");
		return -1;
	}
	c->size = c->entries / c->tables;
	if (c->algo == PMR_MHASH_MH && c->hash == PMR_MHASH_HPAPER &&
	    !ispow2(c->size)) {
		msg(err, errlen, "the paper hash needs a power-of-two table "
		    "size; use --hash=tab for others");
		return -1;
	}
	if (c->algo != PMR_MHASH_MH && (c->hash == PMR_MHASH_HGIVEN ||
	    c->hash == PMR_MHASH_HEXACT)) {
		msg(err, errlen, "hash given and exact apply to multi-hash only");
		return -1;
	}
	/* The budget of a baseline: by default the multi-hash area. */
	if (c->bytes != 0)
		c->budget = c->bytes;
	else {
		struct pmr_mhash_cfg mh = *c;
		struct pmr_mhash_area a;

		mh.algo = PMR_MHASH_MH;
		pmr_mhash_area(&mh, &a);
		c->budget = c->exact_bytes ? (uint64_t)a.total : a.paper_total;
	}
	c->k = 0;
	if (c->algo == PMR_MHASH_SS || c->algo == PMR_MHASH_MG) {
		double k = (double)c->budget / kv_bytes(c);

		if (k < 1 || k > (double)(1u << 26)) {
			msg(err, errlen, "budget gives no entry or too many");
			return -1;
		}
		c->k = (uint32_t)k;
	} else if (c->algo == PMR_MHASH_CMCU) {
		/* The candidate store has A entries; counters get the rest. */
		store = c->acc * acc_entry_bytes(c);
		counters = ((double)c->budget - store) / cbytes(c);
		if (counters < c->tables || counters > (double)(1u << 30)) {
			msg(err, errlen, "budget leaves no room for counters "
			    "after the candidate store");
			return -1;
		}
		c->size = (uint32_t)(counters / c->tables);
		c->entries = c->size * c->tables;
	}
	return 0;
}

/* --- hashing -------------------------------------------------------------- */

/*
 * Draws the S-boxes and builds the packed contribution tables.  For the
 * paper hash, byte k of the key is R[pc byte 7-k] ^ R[value byte k]
 * (flip and randomize commute), so 8 tables indexed by the bytes of
 * bswap(pc) and of value suffice and take half the cache; tabulation
 * hashing has 16 independent positions.
 */
static int
hash_build(struct pmr_mhash *m)
{
	const struct pmr_mhash_cfg *c = &m->c;
	uint64_t st, x, w, contrib;
	unsigned t, p, b, i, word, shift, npos;
	uint8_t perm[256];

	m->pow2 = ispow2(m->sz);
	if (m->pow2) {
		m->fold = 0;
		while (((uint32_t)1 << m->fold) < m->sz)
			m->fold++;
	} else
		m->fold = 32;	/* choice: fold to 32 bits, then mod S */
	m->lw = m->fold <= 8 ? 8 : m->fold <= 16 ? 16 : 32;
	m->lanes = 64 / m->lw;
	m->nw = (m->nt + m->lanes - 1) / m->lanes;
	m->lmask = ((uint64_t)1 << m->lw) - 1;
	m->flip = c->hash != PMR_MHASH_HTAB;
	npos = m->flip ? 8 : 16;
	m->voff = m->flip ? 0 : (size_t)8 * 256 * m->nw;
	m->tab = calloc((size_t)npos * 256 * m->nw, sizeof(*m->tab));
	m->sbox = calloc(m->nt, sizeof(*m->sbox));
	if (m->tab == NULL || m->sbox == NULL)
		return -1;
	for (t = 0; t < m->nt; t++) {
		/* Table t draws from splitmix64(seed, t). */
		st = c->seed ^ (0xa0761d6478bd642full * (t + 1));
		for (i = 0; i < 256; i++)
			perm[i] = (uint8_t)i;
		if (c->sbox_random)
			for (i = 0; i < 256; i++)
				perm[i] = (uint8_t)splitmix64(&st);
		else
			for (i = 255; i > 0; i--) {
				b = (unsigned)(splitmix64(&st) % (i + 1));
				x = perm[i];
				perm[i] = perm[b];
				perm[b] = (uint8_t)x;
			}
		memcpy(m->sbox[t], perm, 256);
		word = t / m->lanes;
		shift = (t % m->lanes) * m->lw;
		for (p = 0; p < npos; p++)
			for (b = 0; b < 256; b++) {
				if (m->flip)	/* key byte p */
					contrib = (uint64_t)perm[b] << (8 * p);
				else
					contrib = splitmix64(&st);
				w = pmr_mhash_xor_fold(contrib, m->fold);
				m->tab[((size_t)p * 256 + b) * m->nw + word] ^=
				    w << shift;
			}
	}
	return 0;
}

#define TB(t, p, x) t[((p) * 256 + ((x) & 0xff)) * nw]
#define HASH16(tp, tv, a, v)						\
	(TB(tp, 0, a) ^ TB(tp, 1, a >> 8) ^ TB(tp, 2, a >> 16) ^	\
	TB(tp, 3, a >> 24) ^ TB(tp, 4, a >> 32) ^ TB(tp, 5, a >> 40) ^	\
	TB(tp, 6, a >> 48) ^ TB(tp, 7, a >> 56) ^ TB(tv, 0, v) ^	\
	TB(tv, 1, v >> 8) ^ TB(tv, 2, v >> 16) ^ TB(tv, 3, v >> 24) ^	\
	TB(tv, 4, v >> 32) ^ TB(tv, 5, v >> 40) ^ TB(tv, 6, v >> 48) ^	\
	TB(tv, 7, v >> 56))

/* Returns word (of nw) of the packed folded indices of (pc, v). */
static inline uint64_t
hash_word(const struct pmr_mhash *m, uint64_t pc, uint64_t v, unsigned word)
{
	const uint64_t *tp = m->tab + word, *tv = tp + m->voff;
	const size_t nw = m->nw;
	uint64_t a = m->flip ? pmr_mhash_bswap64(pc) : pc;

	return HASH16(tp, tv, a, v);
}

/* The same for nw == 1, with constant strides. */
static inline uint64_t
hash_word1(const struct pmr_mhash *m, uint64_t pc, uint64_t v)
{
	const uint64_t *tp = m->tab, *tv = tp + m->voff;
	const size_t nw = 1;
	uint64_t a = m->flip ? pmr_mhash_bswap64(pc) : pc;

	return HASH16(tp, tv, a, v);
}

static inline void
hash_index(const struct pmr_mhash *m, uint64_t pc, uint64_t v, uint32_t *idx)
{
	uint64_t w;
	unsigned t, word, lane;

	for (word = 0; word < m->nw; word++) {
		w = hash_word(m, pc, v, word);
		for (lane = 0; lane < m->lanes; lane++) {
			t = word * m->lanes + lane;
			if (t >= m->nt)
				break;
			idx[t] = (uint32_t)((w >> (lane * m->lw)) & m->lmask);
		}
	}
	if (!m->pow2)
		for (t = 0; t < m->nt; t++)
			idx[t] %= m->sz;
}

unsigned
pmr_mhash_index(const struct pmr_mhash *m, uint64_t pc, uint64_t value,
    uint32_t *idx)
{
	if (m->tab == NULL)
		return 0;
	hash_index(m, pc, value, idx);
	return m->nt;
}

const uint8_t *
pmr_mhash_sbox(const struct pmr_mhash *m, unsigned t)
{
	if (m->sbox == NULL || t >= m->nt)
		return NULL;
	return m->sbox[t];
}

/* --- life cycle ----------------------------------------------------------- */

struct pmr_mhash *
pmr_mhash_new(const struct pmr_mhash_cfg *c, char *err, size_t errlen)
{
	struct pmr_mhash *m;
	uint32_t i;
	int hashed;

	m = calloc(1, sizeof(*m));
	if (m == NULL)
		goto nomem;
	m->c = *c;
	m->cmax = c->cbits >= 32 ? UINT32_MAX : ((uint32_t)1 << c->cbits) - 1;
	m->rng = c->seed ^ 0x5851f42d4c957f2dull;
	m->cur.tsum_min = UINT64_MAX;
	m->tot.tsum_min = UINT64_MAX;
	hashed = c->algo == PMR_MHASH_CMCU || (c->algo == PMR_MHASH_MH &&
	    c->hash != PMR_MHASH_HEXACT);
	m->nt = c->tables;
	m->sz = c->size;
	if (hashed) {
		if (c->hash != PMR_MHASH_HGIVEN && hash_build(m) != 0)
			goto nomem;
		m->ctr = calloc((size_t)m->nt * m->sz, sizeof(*m->ctr));
		if (m->ctr == NULL)
			goto nomem;
	}
	if (c->algo == PMR_MHASH_MH && c->hash == PMR_MHASH_HEXACT &&
	    map_init(&m->xctr, 1024, 1) != 0)
		goto nomem;
	switch (c->algo) {
	case PMR_MHASH_MH:
	case PMR_MHASH_CMCU:
		m->na = c->acc;
		break;
	case PMR_MHASH_SS:
	case PMR_MHASH_MG:
		m->na = c->k;
		break;
	case PMR_MHASH_EXACT:
		m->na = 0;
		if (map_init(&m->cnt, 1024, 1) != 0)
			goto nomem;
		break;
	}
	if (m->na > 0) {
		m->ent = calloc(m->na, sizeof(*m->ent));
		m->freel = calloc(m->na, sizeof(*m->freel));
		m->heap = calloc(m->na, sizeof(*m->heap));
		if (m->ent == NULL || m->freel == NULL || m->heap == NULL ||
		    map_init(&m->ix, m->na, 0) != 0 ||
		    map_init(&m->evicted, 64, 1) != 0)
			goto nomem;
		/* Free list popped from the end: lowest index first. */
		for (i = 0; i < m->na; i++)
			m->freel[i] = m->na - 1 - i;
		m->nfree = m->na;
	}
	m->rescap = m->na > 0 ? m->na : 64;
	m->res = calloc(m->rescap, sizeof(*m->res));
	if (m->res == NULL)
		goto nomem;
	return m;
nomem:
	msg(err, errlen, "out of memory");
	pmr_mhash_free(m);
	return NULL;
}

void
pmr_mhash_free(struct pmr_mhash *m)
{
	if (m == NULL)
		return;
	free(m->tab);
	free(m->sbox);
	free(m->ctr);
	map_free(&m->xctr);
	free(m->ent);
	free(m->freel);
	free(m->heap);
	map_free(&m->ix);
	map_free(&m->evicted);
	map_free(&m->cnt);
	free(m->res);
	free(m);
}

const struct pmr_mhash_cfg *
pmr_mhash_cfg(const struct pmr_mhash *m)
{
	return &m->c;
}

/* --- the multi-hash model (§5.2, §6.1) ------------------------------- */

/* Picks a replaceable victim by the configured policy; choice: lowest
 * count, ties to the lowest index. */
static uint32_t
acc_victim(struct pmr_mhash *m)
{
	uint32_t j, best = UINT32_MAX, r = 0;
	uint64_t key = UINT64_MAX, k;

	if (m->c.victim == PMR_MHASH_VRANDOM)
		r = (uint32_t)(splitmix64(&m->rng) % m->nrepl);
	for (j = 0; j < m->na; j++) {
		if (!m->ent[j].valid || !m->ent[j].repl)
			continue;
		switch (m->c.victim) {
		case PMR_MHASH_VLOWEST:
			k = m->ent[j].count;
			break;
		case PMR_MHASH_VFIFO:
			k = m->ent[j].born;
			break;
		case PMR_MHASH_VLRU:
			k = m->ent[j].hit;
			break;
		default:
			if (r-- == 0)
				return j;
			continue;
		}
		if (k < key) {
			key = k;
			best = j;
		}
	}
	return best;
}

static void
mh_promote(struct pmr_mhash *m, uint64_t pc, uint64_t v, uint32_t est,
    uint32_t *const *p, struct mh_slot *xs)
{
	struct mh_ent *e;
	struct mh_slot *s;
	uint32_t j;
	unsigned i;
	int isnew;

	if (m->nfree > 0)
		j = m->freel[--m->nfree];
	else if (m->nrepl > 0) {
		j = acc_victim(m);
		e = &m->ent[j];
		m->cur.evictions++;
		if (e->count > 0)
			m->cur.evict_live++;
		(void)map_get(&m->evicted, e->pc, e->val, &isnew);
		map_del(&m->ix, map_find(&m->ix, e->pc, e->val));
		m->nrepl--;
	} else {
		m->cur.overflow++;
		if (m->c.reset_on_overflow)
			goto reset;
		return;
	}
	if (m->evicted.n > 0 && map_find(&m->evicted, pc, v) != NULL)
		m->cur.evict_requal++;
	s = map_get(&m->ix, pc, v, &isnew);
	s->v = j;
	e = &m->ent[j];
	e->pc = pc;
	e->val = v;
	/* Choice (the paper is silent): the entry starts at the estimate. */
	e->count = m->c.acc_init == PMR_MHASH_IEST ? est :
	    m->c.acc_init == PMR_MHASH_ITHRESH ? m->c.thresh : 1;
	e->born = e->hit = ++m->clock;
	e->valid = 1;
	e->repl = 0;
	m->cur.promotions++;
	if (!m->c.reset)
		return;
reset:
	m->cur.resets++;
	if (xs != NULL)
		xs->v = 0;
	else
		for (i = 0; i < m->nt; i++)
			*p[i] = 0;
}

static inline void
mh_event(struct pmr_mhash *m, uint64_t pc, uint64_t v, const uint32_t *given)
{
	uint32_t idx[PMR_MHASH_MAXTABLES], *p[PMR_MHASH_MAXTABLES], est;
	struct mh_slot *s, *xs = NULL;
	struct mh_ent *e;
	unsigned i;
	int isnew;

	if ((s = map_find(&m->ix, pc, v)) != NULL) {
		/* Shielding: counted in the accumulator only. */
		e = &m->ent[s->v];
		e->count++;
		if (m->c.victim == PMR_MHASH_VLRU)
			e->hit = ++m->clock;
		m->cur.shielded++;
		if (e->repl && e->count >= m->c.thresh) {
			e->repl = 0;	/* a retained entry re-qualifies */
			m->nrepl--;
			m->cur.requalified++;
		}
		return;
	}
	m->cur.hashed++;
	if (m->c.hash == PMR_MHASH_HEXACT) {
		/* An ideal hash: every table holds the same exact counter. */
		xs = map_get(&m->xctr, pc, v, &isnew);
		if (xs == NULL)
			return;	/* out of memory: count nothing */
		if (xs->v < m->cmax)
			xs->v++;
		else
			m->cur.saturations++;
		est = (uint32_t)xs->v;
	} else {
		if (given == NULL && m->nw == 1 && m->pow2) {
			/* The common case: all indices in one word. */
			uint64_t w = hash_word1(m, pc, v);

			p[0] = &m->ctr[w & m->lmask];	/* N >= 1 */
			for (i = 1; i < m->nt; i++)
				p[i] = &m->ctr[(size_t)i * m->sz +
				    ((w >> (i * m->lw)) & m->lmask)];
		} else {
			if (given == NULL) {
				if (m->tab != NULL)
					hash_index(m, pc, v, idx);
				else
					memset(idx, 0, m->nt * sizeof(idx[0]));
				given = idx;
			}
			p[0] = &m->ctr[given[0]];	/* N >= 1 */
			for (i = 1; i < m->nt; i++)
				p[i] = &m->ctr[(size_t)i * m->sz + given[i]];
		}
		est = pmr_mhash_update(p, m->nt, m->cmax, m->c.cu,
		    &m->cur.saturations);
	}
	if (est >= m->c.thresh)
		mh_promote(m, pc, v, est, p, xs);
}

/*
 * mh_event() for n events in the common configuration (hashed tables, all
 * indices in one word, a power-of-two size), with the hot fields in
 * locals: stores to the counters could alias the fields of *m, so the
 * compiler would reload them after every store otherwise.
 */
static void
mh_run_fast(struct pmr_mhash *m, const uint64_t *pcs, const uint64_t *vs,
    size_t n)
{
	uint32_t *p[PMR_MHASH_MAXTABLES], *const ctr = m->ctr, est, mn, c;
	const uint64_t *const tp = m->tab, *const tv = m->tab + m->voff;
	const uint64_t lmask = m->lmask, thresh = m->c.thresh;
	const unsigned nt = m->nt, lw = m->lw;
	const uint32_t sz = m->sz, cmax = m->cmax;
	const int cu = m->c.cu, flip = m->flip, lru = m->c.victim ==
	    PMR_MHASH_VLRU;
	const size_t nw = 1;
	/* The index never grows or moves, so a copy finds the same slots. */
	const struct mh_map ix = m->ix;
	uint64_t shielded = 0, sat = 0, w, a, pc, v;
	struct mh_slot *s;
	struct mh_ent *e;
	unsigned i;
	size_t j;

	for (j = 0; j < n; j++) {
		pc = pcs[j];
		v = vs[j];
		if ((s = map_find(&ix, pc, v)) != NULL) {
			e = &m->ent[s->v];
			e->count++;
			shielded++;
			if (lru)
				e->hit = ++m->clock;
			if (e->repl && e->count >= thresh) {
				e->repl = 0;
				m->nrepl--;
				m->cur.requalified++;
			}
			continue;
		}
		a = flip ? pmr_mhash_bswap64(pc) : pc;
		w = HASH16(tp, tv, a, v);
		p[0] = &ctr[w & lmask];
		mn = *p[0];
		for (i = 1; i < nt; i++) {
			p[i] = &ctr[(size_t)i * sz + ((w >> (i * lw)) & lmask)];
			c = *p[i];
			mn = c < mn ? c : mn;
		}
		if (!cu)
			est = pmr_mhash_update(p, nt, cmax, 0, &sat);
		else if (mn == cmax) {
			sat++;
			est = mn;
		} else {
			for (i = 0; i < nt; i++)
				*p[i] += *p[i] == mn;
			est = mn + 1;
		}
		if (est >= thresh) {
			m->cur.saturations += sat;
			sat = 0;
			mh_promote(m, pc, v, est, p, NULL);
		}
	}
	m->cur.shielded += shielded;
	m->cur.hashed += n - shielded;
	m->cur.saturations += sat;
}

static int
cand_cmp(const void *a, const void *b)
{
	const struct pmr_mhash_cand *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return 0;
}

static int
res_push(struct pmr_mhash *m, uint64_t pc, uint64_t v, uint64_t count)
{
	struct pmr_mhash_cand *r;

	if (m->nres == m->rescap) {
		r = realloc(m->res, 2 * m->rescap * sizeof(*r));
		if (r == NULL)
			return -1;
		m->res = r;
		m->rescap *= 2;
	}
	m->res[m->nres].pc = pc;
	m->res[m->nres].value = v;
	m->res[m->nres].count = count;
	m->nres++;
	return 0;
}

static void
table_sums(struct pmr_mhash *m)
{
	uint64_t s, lo = UINT64_MAX, hi = 0, i;
	unsigned t;

	if (m->c.hash == PMR_MHASH_HEXACT && m->c.algo == PMR_MHASH_MH) {
		lo = hi = pmr_mhash_table_sum(m, 0);
	} else if (m->ctr != NULL) {
		for (t = 0; t < m->nt; t++) {
			s = 0;
			for (i = 0; i < m->sz; i++)
				s += m->ctr[(size_t)t * m->sz + i];
			if (s < lo)
				lo = s;
			if (s > hi)
				hi = s;
		}
	} else
		lo = 0;
	m->cur.tsum_min = lo;
	m->cur.tsum_max = hi;
}

static void
store_reset(struct pmr_mhash *m)
{
	uint32_t i;

	map_clear(&m->ix);
	for (i = 0; i < m->na; i++) {
		m->ent[i].valid = 0;
		m->ent[i].repl = 0;
		m->freel[i] = m->na - 1 - i;
	}
	m->nfree = m->na;
	m->nheap = 0;
	m->nrepl = 0;
}

static void
mh_end(struct pmr_mhash *m)
{
	struct mh_ent *e;
	uint32_t j;

	for (j = 0; j < m->na; j++) {
		e = &m->ent[j];
		if (e->valid && !e->repl)
			(void)res_push(m, e->pc, e->val, e->count);
	}
	if (m->ctr != NULL)
		memset(m->ctr, 0, (size_t)m->nt * m->sz * sizeof(*m->ctr));
	map_clear(&m->xctr);
	map_clear(&m->evicted);
	if (!m->c.retain) {
		store_reset(m);	/* choice (the paper is silent): P0 empties it */
		return;
	}
	/* P1: flush replaceable entries, zero and mark the others. */
	m->nfree = 0;
	m->nrepl = 0;
	for (j = m->na; j-- > 0;) {
		e = &m->ent[j];
		if (e->valid && e->repl) {
			map_del(&m->ix, map_find(&m->ix, e->pc, e->val));
			e->valid = 0;
		}
		if (!e->valid) {
			m->freel[m->nfree++] = j;
			continue;
		}
		e->count = 0;
		e->repl = 1;
		m->nrepl++;
	}
}

/* --- Space-Saving, Count-Min store: min-heaps of entries by count --------- */

static inline void
heap_swap(struct pmr_mhash *m, uint32_t a, uint32_t b)
{
	uint32_t t = m->heap[a];

	m->heap[a] = m->heap[b];
	m->heap[b] = t;
	m->ent[m->heap[a]].hpos = a;
	m->ent[m->heap[b]].hpos = b;
}

static inline void
heap_down(struct pmr_mhash *m, uint32_t i)
{
	uint32_t l, s;

	for (;;) {
		l = 2 * i + 1;
		if (l >= m->nheap)
			return;
		s = l;
		if (l + 1 < m->nheap &&
		    m->ent[m->heap[l + 1]].count < m->ent[m->heap[l]].count)
			s = l + 1;
		if (m->ent[m->heap[s]].count >= m->ent[m->heap[i]].count)
			return;
		heap_swap(m, i, s);
		i = s;
	}
}

static inline void
heap_up(struct pmr_mhash *m, uint32_t i)
{
	uint32_t p;

	while (i > 0) {
		p = (i - 1) / 2;
		if (m->ent[m->heap[p]].count <= m->ent[m->heap[i]].count)
			return;
		heap_swap(m, i, p);
		i = p;
	}
}

/* Inserts (pc, v) with count into the heap store, replacing the minimum
 * when full. */
static void
heap_put(struct pmr_mhash *m, uint64_t pc, uint64_t v, uint64_t count)
{
	struct mh_ent *e;
	struct mh_slot *s;
	uint32_t j;
	int isnew, replaced = 0;

	if (m->nheap < m->na) {
		j = m->nheap;
		m->heap[m->nheap] = j;
		m->ent[j].hpos = m->nheap++;
	} else {
		j = m->heap[0];
		e = &m->ent[j];
		map_del(&m->ix, map_find(&m->ix, e->pc, e->val));
		m->cur.evictions++;
		replaced = 1;
	}
	e = &m->ent[j];
	e->pc = pc;
	e->val = v;
	e->count = count;
	e->valid = 1;
	s = map_get(&m->ix, pc, v, &isnew);
	s->v = j;
	if (replaced)
		heap_down(m, 0);
	else
		heap_up(m, e->hpos);
}

static inline void
ss_event(struct pmr_mhash *m, uint64_t pc, uint64_t v)
{
	struct mh_slot *s = map_find(&m->ix, pc, v);
	struct mh_ent *e;
	uint64_t c;

	if (s != NULL) {
		e = &m->ent[s->v];
		e->count++;
		heap_down(m, e->hpos);
		return;
	}
	/* A new key inherits the minimum count plus one (overestimates). */
	c = m->nheap < m->na ? 1 : m->ent[m->heap[0]].count + 1;
	heap_put(m, pc, v, c);
}

static inline void
cm_event(struct pmr_mhash *m, uint64_t pc, uint64_t v)
{
	uint32_t idx[PMR_MHASH_MAXTABLES], *p[PMR_MHASH_MAXTABLES], est;
	struct mh_slot *s;
	struct mh_ent *e;
	unsigned i;

	m->cur.hashed++;
	hash_index(m, pc, v, idx);
	p[0] = &m->ctr[idx[0]];	/* N >= 1 */
	for (i = 1; i < m->nt; i++)
		p[i] = &m->ctr[(size_t)i * m->sz + idx[i]];
	est = pmr_mhash_update(p, m->nt, m->cmax, 1, &m->cur.saturations);
	if (m->ix.n > 0 && (s = map_find(&m->ix, pc, v)) != NULL) {
		e = &m->ent[s->v];
		e->count = est;
		heap_down(m, e->hpos);
		return;
	}
	if (est < m->c.thresh)
		return;
	if (m->nheap == m->na && est <= m->ent[m->heap[0]].count) {
		m->cur.overflow++;
		return;
	}
	m->cur.promotions++;
	heap_put(m, pc, v, est);
}

/* --- Misra-Gries ---------------------------------------------------------- */

static inline void
mg_event(struct pmr_mhash *m, uint64_t pc, uint64_t v)
{
	struct mh_slot *s = map_find(&m->ix, pc, v);
	struct mh_ent *e;
	uint32_t j;
	int isnew;

	if (s != NULL) {
		m->ent[s->v].count++;
		return;
	}
	if (m->nfree > 0) {
		j = m->freel[--m->nfree];
		e = &m->ent[j];
		e->pc = pc;
		e->val = v;
		e->count = 1;
		e->valid = 1;
		s = map_get(&m->ix, pc, v, &isnew);
		s->v = j;
		return;
	}
	/* Full: decrement every counter (amortized O(1): each round removes
	 * k + 1 from a total of at most L). */
	m->cur.overflow++;
	for (j = m->na; j-- > 0;) {
		e = &m->ent[j];
		if (--e->count == 0) {
			map_del(&m->ix, map_find(&m->ix, e->pc, e->val));
			e->valid = 0;
			m->freel[m->nfree++] = j;
			m->cur.evictions++;
		}
	}
}

static void
store_end(struct pmr_mhash *m)
{
	uint32_t j;

	for (j = 0; j < m->na; j++)
		if (m->ent[j].valid && m->ent[j].count >= m->c.thresh)
			(void)res_push(m, m->ent[j].pc, m->ent[j].val,
			    m->ent[j].count);
	if (m->ctr != NULL)
		memset(m->ctr, 0, (size_t)m->nt * m->sz * sizeof(*m->ctr));
	store_reset(m);
}

/* --- exact ---------------------------------------------------------------- */

static inline void
exact_event(struct pmr_mhash *m, uint64_t pc, uint64_t v)
{
	struct mh_slot *s;
	int isnew;

	s = map_get(&m->cnt, pc, v, &isnew);
	if (s != NULL)
		s->v++;
}

static void
exact_end(struct pmr_mhash *m)
{
	uint64_t i;

	for (i = 0; i <= m->cnt.mask; i++)
		if (m->cnt.s[i].used && m->cnt.s[i].v >= m->c.thresh)
			(void)res_push(m, m->cnt.s[i].pc, m->cnt.s[i].val,
			    m->cnt.s[i].v);
	m->cur.distinct = m->cnt.n;
	m->need_clear = 1;	/* kept for pmr_mhash_exact_count */
}

uint64_t
pmr_mhash_exact_count(const struct pmr_mhash *m, uint64_t pc, uint64_t value)
{
	const struct mh_slot *s;

	if (m->c.algo != PMR_MHASH_EXACT)
		return 0;
	s = map_find(&m->cnt, pc, value);
	return s != NULL ? s->v : 0;
}

/* --- dispatch ------------------------------------------------------------- */

static void
end_interval(struct pmr_mhash *m)
{
	struct pmr_mhash_stats *c = &m->cur, *t = &m->tot;

	m->nres = 0;
	table_sums(m);
	switch (m->c.algo) {
	case PMR_MHASH_MH:
		mh_end(m);
		break;
	case PMR_MHASH_EXACT:
		exact_end(m);
		break;
	default:
		store_end(m);
		break;
	}
	qsort(m->res, m->nres, sizeof(*m->res), cand_cmp);
	c->events = m->pos;
	m->is = *c;
	t->events += c->events;
	t->hashed += c->hashed;
	t->shielded += c->shielded;
	t->promotions += c->promotions;
	t->overflow += c->overflow;
	t->evictions += c->evictions;
	t->evict_live += c->evict_live;
	t->evict_requal += c->evict_requal;
	t->requalified += c->requalified;
	t->saturations += c->saturations;
	t->resets += c->resets;
	t->distinct += c->distinct;
	if (c->tsum_min < t->tsum_min)
		t->tsum_min = c->tsum_min;
	if (c->tsum_max > t->tsum_max)
		t->tsum_max = c->tsum_max;
	memset(c, 0, sizeof(*c));
	m->last_events = m->pos;
	m->pos = 0;
	m->next++;
}

static inline int
add(struct pmr_mhash *m, uint64_t pc, uint64_t v, const uint32_t *idx)
{
	if (m->need_clear) {
		map_clear(&m->cnt);
		m->need_clear = 0;
	}
	switch (m->c.algo) {
	case PMR_MHASH_MH:
		mh_event(m, pc, v, idx);
		break;
	case PMR_MHASH_SS:
		ss_event(m, pc, v);
		break;
	case PMR_MHASH_CMCU:
		cm_event(m, pc, v);
		break;
	case PMR_MHASH_MG:
		mg_event(m, pc, v);
		break;
	case PMR_MHASH_EXACT:
		exact_event(m, pc, v);
		break;
	}
	if (++m->pos == m->c.interval) {
		end_interval(m);
		return 1;
	}
	return 0;
}

size_t
pmr_mhash_add_many(struct pmr_mhash *m, const uint64_t *pc,
    const uint64_t *value, size_t n, int *closed)
{
	size_t i, k;

	if (m->need_clear) {
		map_clear(&m->cnt);
		m->need_clear = 0;
	}
	/* Up to the end of the interval, with the dispatch out of the loop. */
	k = m->c.interval - m->pos;
	if (k > n)
		k = n;
	switch (m->c.algo) {
	case PMR_MHASH_MH:
		if (m->nw == 1 && m->pow2 && m->ctr != NULL && m->tab != NULL)
			mh_run_fast(m, pc, value, k);
		else
			for (i = 0; i < k; i++)
				mh_event(m, pc[i], value[i], NULL);
		break;
	case PMR_MHASH_SS:
		for (i = 0; i < k; i++)
			ss_event(m, pc[i], value[i]);
		break;
	case PMR_MHASH_CMCU:
		for (i = 0; i < k; i++)
			cm_event(m, pc[i], value[i]);
		break;
	case PMR_MHASH_MG:
		for (i = 0; i < k; i++)
			mg_event(m, pc[i], value[i]);
		break;
	case PMR_MHASH_EXACT:
		for (i = 0; i < k; i++)
			exact_event(m, pc[i], value[i]);
		break;
	}
	m->pos += k;
	*closed = m->pos == m->c.interval;
	if (*closed)
		end_interval(m);
	return k;
}

int
pmr_mhash_add(struct pmr_mhash *m, uint64_t pc, uint64_t value)
{
	return add(m, pc, value, NULL);
}

int
pmr_mhash_add_idx(struct pmr_mhash *m, uint64_t pc, uint64_t value,
    const uint32_t *idx)
{
	return add(m, pc, value,
	    m->c.hash == PMR_MHASH_HGIVEN && m->c.algo == PMR_MHASH_MH ? idx :
	    NULL);
}

int
pmr_mhash_finish(struct pmr_mhash *m)
{
	if (m->pos == 0)
		return 0;
	end_interval(m);
	return 1;
}

const struct pmr_mhash_cand *
pmr_mhash_result(const struct pmr_mhash *m, size_t *n)
{
	*n = m->nres;
	return m->res;
}

uint64_t
pmr_mhash_interval(const struct pmr_mhash *m)
{
	return m->next - 1;
}

uint64_t
pmr_mhash_ievents(const struct pmr_mhash *m)
{
	return m->last_events;
}

const struct pmr_mhash_stats *
pmr_mhash_istats(const struct pmr_mhash *m)
{
	return &m->is;
}

const struct pmr_mhash_stats *
pmr_mhash_stats(const struct pmr_mhash *m)
{
	return &m->tot;
}

uint32_t
pmr_mhash_counter(const struct pmr_mhash *m, unsigned t, uint32_t idx)
{
	if (m->ctr == NULL || t >= m->nt || idx >= m->sz)
		return 0;
	return m->ctr[(size_t)t * m->sz + idx];
}

uint64_t
pmr_mhash_table_sum(const struct pmr_mhash *m, unsigned t)
{
	uint64_t s = 0, i;

	if (m->c.algo == PMR_MHASH_MH && m->c.hash == PMR_MHASH_HEXACT) {
		for (i = 0; i <= m->xctr.mask; i++)
			if (m->xctr.s[i].used)
				s += m->xctr.s[i].v;
		return s;
	}
	if (m->ctr == NULL || t >= m->nt)
		return 0;
	for (i = 0; i < m->sz; i++)
		s += m->ctr[(size_t)t * m->sz + i];
	return s;
}

int
pmr_mhash_acc_find(const struct pmr_mhash *m, uint64_t pc, uint64_t value,
    uint64_t *count, int *repl)
{
	const struct mh_slot *s;

	if (m->na == 0)
		return 0;
	s = map_find(&m->ix, pc, value);
	if (s == NULL)
		return 0;
	*count = m->ent[s->v].count;
	*repl = m->ent[s->v].repl;
	return 1;
}

uint32_t
pmr_mhash_acc_used(const struct pmr_mhash *m, uint32_t *nrepl)
{
	if (nrepl != NULL)
		*nrepl = m->nrepl;
	return (uint32_t)m->ix.n;
}

/* --- sweeps of the paper's figures --------------------------------------- */

static const char *const sweeps[] = {
	"fig7", "fig10", "fig11", "fig12", "fig14", "baselines", NULL
};

const char *const *
pmr_mhash_sweeps(void)
{
	return sweeps;
}

static size_t
put(struct pmr_mhash_cfg *out, size_t n, size_t max,
    const struct pmr_mhash_cfg *base, enum pmr_mhash_algo algo, uint32_t nt,
    int cu, int reset, int retain)
{
	if (n >= max)
		return n;
	out[n] = *base;
	out[n].algo = algo;
	out[n].tables = nt;
	out[n].cu = cu;
	out[n].reset = reset;
	out[n].retain = retain;
	return n + 1;
}

int
pmr_mhash_sweep(const char *name, const struct pmr_mhash_cfg *base,
    struct pmr_mhash_cfg *out, size_t max)
{
	static const uint32_t n4[] = { 1, 2, 4, 8 }, n5[] = { 1, 2, 4, 8, 16 };
	size_t n = 0, i;
	int r, p, cu;

	if (strcmp(name, "fig7") == 0) {
		/* Single hash: R0/R1 x P0/P1. */
		for (p = 0; p <= 1; p++)
			for (r = 0; r <= 1; r++)
				n = put(out, n, max, base, PMR_MHASH_MH, 1, 0,
				    r, p);
	} else if (strcmp(name, "fig10") == 0 || strcmp(name, "fig11") == 0) {
		/* N in 1,2,4,8 x C0R0, C1R0, C0R1, C1R1, all P1. */
		for (i = 0; i < 4; i++)
			for (r = 0; r <= 1; r++)
				for (cu = 0; cu <= 1; cu++)
					n = put(out, n, max, base,
					    PMR_MHASH_MH, n4[i], cu, r, 1);
	} else if (strcmp(name, "fig12") == 0 || strcmp(name, "fig14") == 0) {
		/* C1R0P1 with N in 1..16, and the best single hash. */
		for (i = 0; i < 5; i++)
			n = put(out, n, max, base, PMR_MHASH_MH, n5[i], 1, 0,
			    1);
		n = put(out, n, max, base, PMR_MHASH_MH, 1, 0, 1, 1);
	} else if (strcmp(name, "baselines") == 0) {
		/* The paper's two designs and the software baselines at the
		 * multi-hash configuration's bytes. */
		n = put(out, n, max, base, PMR_MHASH_MH, base->tables, 1, 0, 1);
		n = put(out, n, max, base, PMR_MHASH_MH, 1, 0, 1, 1);
		n = put(out, n, max, base, PMR_MHASH_SS, base->tables, 1, 0, 1);
		n = put(out, n, max, base, PMR_MHASH_CMCU, base->tables, 1, 0,
		    1);
		n = put(out, n, max, base, PMR_MHASH_MG, base->tables, 1, 0, 1);
		/* The baselines' budget is the multi-hash area, not BSH's. */
		for (i = 2; i < n; i++)
			out[i].bytes = base->bytes;
	} else
		return -1;
	return (int)n;
}

void
pmr_mhash_cfg_name(const struct pmr_mhash_cfg *c, char *buf, size_t len)
{
	switch (c->algo) {
	case PMR_MHASH_MH:
		snprintf(buf, len, "%s-n%u-c%dr%dp%d%s", c->tables == 1 &&
		    c->reset && c->retain ? "bsh" : "mh",
		    c->tables, c->cu, c->reset, c->retain,
		    c->hash == PMR_MHASH_HTAB ? "-tab" :
		    c->hash == PMR_MHASH_HEXACT ? "-ideal" :
		    c->hash == PMR_MHASH_HGIVEN ? "-given" : "");
		break;
	case PMR_MHASH_SS:
	case PMR_MHASH_MG:
		snprintf(buf, len, "%s-k%u", pmr_mhash_algo_name(c->algo),
		    c->k);
		break;
	case PMR_MHASH_CMCU:
		snprintf(buf, len, "cmcu-d%uw%u", c->tables, c->size);
		break;
	case PMR_MHASH_EXACT:
		snprintf(buf, len, "exact");
		break;
	}
}
