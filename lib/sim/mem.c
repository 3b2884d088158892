/*
 * mem.c: the memory system seen by the core: D-cache, DTLB and page walks,
 * L2, DRAM, MSHRs; the I-side fetch access (caches in cache.c); the same
 * accesses untimed, for the functional warm-up of --skip.
 */
#include "sim/sim_internal.h"

/*
 * Finds key in the first-touch set, adding it (*fresh set) if it was not
 * there; returns its cycle field (when its walk is done), or NULL when
 * out of memory.  The set holds (key, cycle) pairs.
 */
static uint64_t *
touch_key(struct pmr_sim *s, uint64_t pg, int *fresh)
{
	uint64_t m, i;

	*fresh = 0;
	if ((s->npages + 1) * 2 > s->pagecap) {
		uint64_t cap = s->pagecap ? s->pagecap * 2 : 4096, j;
		uint64_t *h = calloc(cap, 2 * sizeof(*h));

		if (h == NULL)
			return NULL;
		for (j = 0; j < s->pagecap; j++)
			if (s->pages[2 * j] != 0) {
				i = sim_pc_hash(s->pages[2 * j]) & (cap - 1);
				while (h[2 * i] != 0)
					i = (i + 1) & (cap - 1);
				h[2 * i] = s->pages[2 * j];
				h[2 * i + 1] = s->pages[2 * j + 1];
			}
		free(s->pages);
		s->pages = h;
		s->pagecap = cap;
	}
	m = s->pagecap - 1;
	for (i = sim_pc_hash(pg) & m; s->pages[2 * i] != 0; i = (i + 1) & m)
		if (s->pages[2 * i] == pg)
			return &s->pages[2 * i + 1];
	s->pages[2 * i] = pg;
	s->pages[2 * i + 1] = 0;
	s->npages++;
	*fresh = 1;
	return &s->pages[2 * i + 1];
}

/*
 * first_touch() with fault_lat set: looks addr's page up, adding it.
 * A first touch costs fault_lat, ChampSim's minor fault of the data page
 * and of the new leaf table page (src/vmem.cc makes one per 4 KiB
 * page), plus the walk's read of that table page, a line no cache holds
 * (mem_lat).  A new 2 MiB, 1 GiB or 512 GiB region adds a table page of
 * its own: half fault_lat and another read from memory.  An access to
 * the page while its walk runs waits for it, as ChampSim merges
 * same-page translations in the TLB's queue (src/ptw.cc).
 */
unsigned __attribute__((noinline))
sim_page_touch(struct pmr_sim *s, uint64_t addr)
{
	unsigned lat, k;
	int fresh;
	uint64_t *done = touch_key(s, (addr >> s->pshift) + 1, &fresh), *d2;

	if (done == NULL)
		return 0;
	if (!fresh)
		return *done > s->now ? (unsigned)(*done - s->now) : 0;
	lat = s->c.fault_lat + s->c.mem_lat;
	for (k = 1; k <= 3; k++) {	/* 2 MiB, 1 GiB, 512 GiB regions */
		int f;

		d2 = touch_key(s, ((uint64_t)k << 61) |
		    (addr >> (12 + 9 * k)), &f);
		if (d2 != NULL && f)
			lat += s->c.fault_lat / 2 + s->c.mem_lat;
	}
	/* the region keys may have moved the set */
	if ((done = touch_key(s, (addr >> s->pshift) + 1, &fresh)) != NULL)
		*done = s->now + lat;
	return lat;
}

/*
 * sim_page_touch() for the functional warm-up: adds addr's page (and
 * its new regions) to the first-touch set as touched long ago, with no
 * walk under way.
 */
void
sim_page_mark(struct pmr_sim *s, uint64_t addr)
{
	unsigned k;
	int fresh;

	if (touch_key(s, (addr >> s->pshift) + 1, &fresh) == NULL || !fresh)
		return;
	for (k = 1; k <= 3; k++)	/* as sim_page_touch() */
		(void)touch_key(s, ((uint64_t)k << 61) |
		    (addr >> (12 + 9 * k)), &fresh);
}

/*
 * With dram_banks, an open-page row model: the bank of the line of addr
 * (its low line-number bits, XOR-folded with the row number, as ChampSim
 * maps addresses) keeps its last row open, and a closed row or a row
 * conflict adds dram_closed or dram_conflict.  Returns those extra
 * cycles and opens addr's row.
 */
static unsigned
dram_row(struct pmr_sim *s, uint64_t addr)
{
	uint64_t row = addr >> s->rshift;
	uint32_t b = (uint32_t)(((addr >> s->lshift) ^ row) &
	    (s->c.dram_banks - 1));
	unsigned lat = 0;

	if (s->dram_open[b] != row + 1)
		lat = s->dram_open[b] == 0 ? s->c.dram_closed :
		    s->c.dram_conflict;
	s->dram_open[b] = row + 1;
	return lat;
}

/*
 * Latency of a line read from memory, requested now: mem_lat, plus the
 * row model's (dram_row).  With mem_bus, one bus carries the lines one
 * after the other, in request order: a line arrives no earlier than
 * mem_bus cycles after the previous one.  Bank busy times, refresh and
 * write traffic are not modelled.
 */
static unsigned
dram(struct pmr_sim *s, uint64_t addr)
{
	uint64_t lat = s->c.mem_lat, done;

	if (s->c.dram_banks != 0)
		lat += dram_row(s, addr);
	if (s->c.mem_bus == 0)
		return (unsigned)lat;
	done = s->now + lat;
	if (done < s->bus_free + s->c.mem_bus)
		done = s->bus_free + s->c.mem_bus;
	s->bus_free = done;
	return (unsigned)(done - s->now);
}

/* Latency of a line that missed the L1 (L2, L3, memory); sets LLC_MISS,
 * and the line's L2 way and whether it hit in s->l2_way, s->l2_hit. */
static unsigned
lower_levels(struct pmr_sim *s, uint64_t addr, uint32_t *ev)
{
	s->l2_way = pmr_sim_cache_way(&s->l2, addr, 1, &s->l2_hit);
	if (s->l2_hit)
		return s->c.l2_lat;
	if (s->c.l3_size != 0 && pmr_sim_cache_access(&s->l3, addr, 1))
		return s->c.l3_lat;
	*ev |= PMR_SIM_EV_LLC_MISS;
	return dram(s, addr);
}

/*
 * Times a data load of addr issued now.  Returns its load-to-use latency,
 * or -1 when it misses and no MSHR is free (the load must wait).
 */
int
sim_load_access(struct pmr_sim *s, uint64_t addr, uint32_t *ev, int must)
{
	uint64_t line = addr >> s->lshift;
	unsigned i, tl = 0, lat;
	int freem = -1, hit;
	struct pmr_sim_way *w;

	s->last_tl = 0;
	if (s->o.ideal & PMR_SIM_IDEAL_DMISS)
		return (int)s->c.l1d_lat;
	if (s->now >= s->mshr_until)	/* none outstanding */
		freem = 0;
	else for (i = 0; i < s->c.mshr; i++) {
		if (s->mshr_fill[i] > s->now && s->mshr_line[i] == line) {
			/* a miss to this line is outstanding: merge */
			*ev |= PMR_SIM_EV_DCACHE_MISS;
			if (s->access_pos > s->mshr_pos[i])
				s->merged_dist = (uint32_t)(s->access_pos -
				    s->mshr_pos[i]);
			lat = (unsigned)(s->mshr_fill[i] - s->now);
			return (int)(lat > s->c.l1d_lat ? lat : s->c.l1d_lat);
		}
		if (freem < 0 && s->mshr_fill[i] <= s->now)
			freem = (int)i;
	}
	/* a miss that finds no MSHR waits, leaving no trace */
	w = pmr_sim_cache_way(&s->l1d, addr, 0, &hit);
	if (!hit && freem < 0 && !must)
		return -1;
	if (!pmr_sim_cache_access(&s->dtlb, addr, 1)) {
		*ev |= PMR_SIM_EV_DTLB_MISS;
		tl = s->c.tlb_lat;
	}
	tl += first_touch(s, addr);
	s->last_tl = tl;
	if (hit) {
		if (s->graph_on && w->filler != 0 && s->fill_dist == 0) {
			uint32_t d = (uint32_t)s->access_pos + 1 - w->filler;

			/* a filler beyond the graph's reach is forgotten, so
			 * that the 32-bit position never wraps onto a recent
			 * instruction */
			if (d > s->gmask)
				w->filler = 0;
			else
				s->fill_dist = d;
		}
		return (int)(s->c.l1d_lat + tl);
	}
	w = pmr_sim_cache_way(&s->l1d, addr, 1, &hit);
	if (s->graph_on)
		w->filler = (uint32_t)s->access_pos + 1;
	*ev |= PMR_SIM_EV_DCACHE_MISS;
	lat = lower_levels(s, addr, ev) + tl;
	if (freem >= 0) {
		s->mshr_line[freem] = line;
		s->mshr_fill[freem] = s->now + lat;
		if (s->now + lat > s->mshr_until)
			s->mshr_until = s->now + lat;
		s->mshr_pos[freem] = s->access_pos;
	}
	return (int)lat;
}

/*
 * The wrong path's instruction prefetch, for the graph (GNODE dd_wp): a
 * wrong-path fetch that misses the L1-I leaves in the line's L1-I way the
 * cycles below the L1 it paid (low), and, if the line missed the L2 too,
 * in its L2 way the cycles beyond an L2 hit.  A correct-path fetch that
 * then finds the line takes those cycles as the stall it was spared
 * (s->pend_wp) and clears them.  Without mispredicts (bmisp) the line
 * would not be there: icost adds dd_wp to the fetch edge of the lanes
 * that idealize bmisp but not imiss.  Fills that evict correct-path lines
 * (wrong-path pollution) are not tracked.
 */
static void
wp_fill(struct pmr_sim *s, struct pmr_sim_way *w1, unsigned low)
{
	struct pmr_sim_way *w2 = s->l2_way;	/* lower_levels' L2 way */

	if (s->wrongpath) {
		if (s->l2_hit)	/* not there either without the wrong path
				 * if a wrong path brought it to the L2 */
			w1->wp = low + w2->wp;
		else {
			w2->wp = low > s->c.l2_lat ? low - s->c.l2_lat : 0;
			w1->wp = low;
		}
		return;
	}
	if (s->l2_hit && w2->wp != 0) {	/* an L2 line a wrong path brought */
		s->pend_wp += w2->wp;
		w2->wp = 0;
	}
}

/* Fetches the line of pc through the ITLB and L1-I; returns stall cycles. */
unsigned
sim_ifetch(struct pmr_sim *s, uint64_t pc, uint32_t *ev)
{
	struct pmr_sim_way *w1;
	unsigned lat = 0;
	int hit;

	s->last_itl = 0;
	if (s->o.ideal & PMR_SIM_IDEAL_IMISS)
		return 0;
	if (!pmr_sim_cache_access(&s->itlb, pc, 1)) {
		*ev |= PMR_SIM_EV_ITLB_MISS;
		lat += s->c.tlb_lat;
		if (s->measuring)
			s->st.itlb_miss++;
	}
	lat += first_touch(s, pc);
	s->last_itl = lat;
	w1 = pmr_sim_cache_way(&s->l1i, pc, 1, &hit);
	if (!hit) {
		unsigned low;

		*ev |= PMR_SIM_EV_ICACHE_MISS;
		low = lower_levels(s, pc, ev);
		lat += low;
		*ev &= ~PMR_SIM_EV_LLC_MISS;
		if (s->measuring)
			s->st.icache_miss++;
		if (s->graph_on)
			wp_fill(s, w1, low);
	} else if (s->graph_on && w1->wp != 0 && !s->wrongpath) {
		/* the correct path hits a line a wrong path brought */
		struct pmr_sim_way *w2 = pmr_sim_cache_probe(&s->l2, pc);

		s->pend_wp += w1->wp;
		w1->wp = 0;
		if (w2 != NULL)
			w2->wp = 0;
	}
	return lat;
}

/*
 * The functional warm-up (--skip; sim_warm_insn): the state an access
 * leaves in the caches, TLBs, first-touch set and DRAM rows, through the
 * functions the timed accesses use, with no time passing: no MSHR, bus,
 * page walk under way, wrong-path prefetch (GNODE dd_wp) or statistics.
 */

/* A line that missed the L1: lower_levels() without its latency. */
static void
warm_lower(struct pmr_sim *s, uint64_t addr)
{
	int hit;

	(void)pmr_sim_cache_way(&s->l2, addr, 1, &hit);
	if (hit || (s->c.l3_size != 0 &&
	    pmr_sim_cache_access(&s->l3, addr, 1)))
		return;
	if (s->c.dram_banks != 0)
		(void)dram_row(s, addr);
}

/* An access to addr through tlb and the L1 l1, unless ideal (a
 * PMR_SIM_IDEAL_* bit) makes them perfect, and below on a miss. */
static void
warm_access(struct pmr_sim *s, unsigned ideal, struct pmr_sim_cache *tlb,
    struct pmr_sim_cache *l1, uint64_t addr)
{
	int hit;

	if (s->o.ideal & ideal)
		return;
	(void)pmr_sim_cache_access(tlb, addr, 1);
	if (s->c.fault_lat != 0)
		sim_page_mark(s, addr);
	(void)pmr_sim_cache_way(l1, addr, 1, &hit);
	if (!hit)
		warm_lower(s, addr);
}

/* A fetch of pc's line: sim_ifetch() without its timing. */
void
sim_warm_ifetch(struct pmr_sim *s, uint64_t pc)
{
	warm_access(s, PMR_SIM_IDEAL_IMISS, &s->itlb, &s->l1i, pc);
}

/* A load of addr: sim_load_access() without its timing. */
void
sim_warm_load(struct pmr_sim *s, uint64_t addr)
{
	warm_access(s, PMR_SIM_IDEAL_DMISS, &s->dtlb, &s->l1d, addr);
}

/* A store to addr: its DTLB look-up at issue and its write-allocate of
 * the L1-D line at retirement (issue.c, retire.c). */
void
sim_warm_store(struct pmr_sim *s, uint64_t addr)
{
	if (!(s->o.ideal & PMR_SIM_IDEAL_DMISS))
		(void)pmr_sim_cache_access(&s->dtlb, addr, 1);
	(void)pmr_sim_cache_access(&s->l1d, addr, 1);
}
