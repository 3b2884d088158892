/*
 * top.c: the static instructions that cost most (icost --top): per pc,
 * the instances, the sum of their gain bounds (an upper bound of the pc's
 * cost, graph.c), the measured cost and icost; the choice of what to
 * measure next, and the report.  See top.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "icost/icost.h"
#include "icost/top.h"
#include "trace/trace.h"

struct pmr_icost_top {
	struct pmr_icost_top_row *row;
	size_t n, cap;
	uint32_t *slot;		/* open addressing: row index + 1, 0 empty */
	size_t nslot;		/* power of two, at least 2n */
	size_t last;		/* row of the previous node, SIZE_MAX none */
};

static size_t
hash_pc(uint64_t pc, size_t mask)
{
	pc ^= pc >> 29;
	pc *= 0xbf58476d1ce4e5b9ull;
	pc ^= pc >> 32;
	return (size_t)pc & mask;
}

struct pmr_icost_top *
pmr_icost_top_new(void)
{
	struct pmr_icost_top *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->nslot = 1024;
	if ((t->slot = calloc(t->nslot, sizeof(*t->slot))) == NULL) {
		free(t);
		return NULL;
	}
	t->last = SIZE_MAX;
	return t;
}

void
pmr_icost_top_free(struct pmr_icost_top *t)
{
	if (t == NULL)
		return;
	free(t->row);
	free(t->slot);
	free(t);
}

static int
grow(struct pmr_icost_top *t)
{
	size_t ns = t->nslot * 2, i;
	uint32_t *s = calloc(ns, sizeof(*s));

	if (s == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < t->n; i++) {
		size_t h = hash_pc(t->row[i].pc, ns - 1);

		while (s[h] != 0)
			h = (h + 1) & (ns - 1);
		s[h] = (uint32_t)(i + 1);
	}
	free(t->slot);
	t->slot = s;
	t->nslot = ns;
	return 0;
}

/* The row of pc, made if new; NULL out of memory. */
static struct pmr_icost_top_row *
row_of(struct pmr_icost_top *t, uint64_t pc, int make)
{
	size_t h = hash_pc(pc, t->nslot - 1);

	while (t->slot[h] != 0) {
		struct pmr_icost_top_row *r = &t->row[t->slot[h] - 1];

		if (r->pc == pc)
			return r;
		h = (h + 1) & (t->nslot - 1);
	}
	if (!make)
		return NULL;
	if (t->n == t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 256;
		struct pmr_icost_top_row *nr;

		if (nc > UINT32_MAX - 1 ||
		    (nr = realloc(t->row, nc * sizeof(*nr))) == NULL)
			return NULL;
		t->row = nr;
		t->cap = nc;
	}
	memset(&t->row[t->n], 0, sizeof(t->row[0]));
	t->row[t->n].pc = pc;
	t->slot[h] = (uint32_t)(++t->n);
	if (2 * t->n > t->nslot && grow(t) != 0)
		return NULL;
	return &t->row[t->n - 1];
}

int
pmr_icost_top_node(struct pmr_icost_top *t, uint64_t pc, unsigned cls,
    int64_t cur, int64_t prev)
{
	struct pmr_icost_top_row *r;

	if (prev > 0 && t->last != SIZE_MAX)
		t->row[t->last].bound += prev;
	if ((r = row_of(t, pc, 1)) == NULL)
		return PMR_ENOMEM;
	r->cls = cls;
	r->execs++;
	r->bound += cur;
	t->last = (size_t)(r - t->row);
	return 0;
}

void
pmr_icost_top_restart(struct pmr_icost_top *t)
{
	t->last = SIZE_MAX;
}

/* Orders rows by bound, largest first (pc breaks ties). */
static int
by_bound(const void *a, const void *b)
{
	const struct pmr_icost_top_row *x = *(const struct pmr_icost_top_row
	    *const *)a, *y = *(const struct pmr_icost_top_row *const *)b;

	if (x->bound != y->bound)
		return x->bound > y->bound ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Orders rows by measured cost, largest first (pc breaks ties). */
static int
by_cost(const void *a, const void *b)
{
	const struct pmr_icost_top_row *x = *(const struct pmr_icost_top_row
	    *const *)a, *y = *(const struct pmr_icost_top_row *const *)b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The measured rows, by cost; returns their number (-1: no memory). */
static long
measured(const struct pmr_icost_top *t, const struct pmr_icost_top_row ***out)
{
	const struct pmr_icost_top_row **m;
	size_t i, n = 0;

	if ((m = malloc((t->n + 1) * sizeof(*m))) == NULL)
		return -1;
	for (i = 0; i < t->n; i++)
		if (t->row[i].measured)
			m[n++] = &t->row[i];
	qsort(m, n, sizeof(*m), by_cost);
	*out = m;
	return (long)n;
}

unsigned
pmr_icost_top_next(const struct pmr_icost_top *t, unsigned k, uint64_t *pcs,
    unsigned max)
{
	const struct pmr_icost_top_row **m, **c;
	int64_t floor = 0;
	long nm = measured(t, &m);
	size_t i, n = 0;
	unsigned out = 0;

	if (nm < 0)
		return 0;
	if (k > 0 && (unsigned long)nm >= k)
		floor = m[k - 1]->cost > 0 ? m[k - 1]->cost : 0;
	free(m);
	if ((c = malloc((t->n + 1) * sizeof(*c))) == NULL)
		return 0;
	for (i = 0; i < t->n; i++)
		if (!t->row[i].measured && t->row[i].bound > floor)
			c[n++] = &t->row[i];
	qsort(c, n, sizeof(*c), by_bound);
	for (i = 0; i < n && out < max; i++)
		pcs[out++] = c[i]->pc;
	free(c);
	return out;
}

int
pmr_icost_top_set(struct pmr_icost_top *t, uint64_t pc, int64_t cost,
    int64_t icost, int64_t *bound)
{
	struct pmr_icost_top_row *r = row_of(t, pc, 0);

	if (r == NULL)
		return 0;
	r->measured = 1;
	r->cost = cost;
	r->icost = icost;
	*bound = r->bound;
	return cost <= r->bound;
}

void
pmr_icost_top_counts(const struct pmr_icost_top *t, uint64_t *pcs,
    uint64_t *bounded, uint64_t *nmeas)
{
	size_t i;

	*pcs = t->n;
	*bounded = *nmeas = 0;
	for (i = 0; i < t->n; i++) {
		*bounded += t->row[i].bound > 0;
		*nmeas += t->row[i].measured != 0;
	}
}

int
pmr_icost_top_report(FILE *f, const struct pmr_icost_top *t,
    const struct pmr_icost_top_view *v)
{
	const struct pmr_icost_top_row **m;
	long nm = measured(t, &m), i;
	uint64_t npc, nb, nmeas;
	int seen = 0;
	struct pmr_grid g;

	if (nm < 0)
		return -1;
	pmr_icost_top_counts(t, &npc, &nb, &nmeas);
	if (v->fmt == PMR_TABLE_TEXT) {
		fprintf(f, "# the %u static instructions whose %s costs most "
		    "(idealized at that pc alone)%s%s; t = %" PRId64 " cycles\n",
		    v->k, v->cat, v->with ? ", and their icost with " : "",
		    v->with ? v->with : "", v->t);
		fprintf(f, "# %" PRIu64 " pcs, %" PRIu64 " with a bound above "
		    "0, %" PRIu64 " measured in %u graph passes: the rest are "
		    "bounded below the last row\n", npc, nb, nmeas, v->passes);
		if (v->note != NULL)
			fprintf(f, "# %s\n", v->note);
		pmr_grid_init(&g, v->with ? 9 : 7);
		pmr_grid_put(&g, "pc");
		pmr_grid_put(&g, "proc");
		pmr_grid_put(&g, "class");
		pmr_grid_put(&g, "execs");
		pmr_grid_put(&g, "percent");
		pmr_grid_put(&g, "cycles");
		pmr_grid_put(&g, "bound");
		if (v->with) {
			pmr_grid_putf(&g, "+%s %%", v->with);
			pmr_grid_putf(&g, "+%s", v->with);
		}
	}
	for (i = 0; i < nm && i < (long)v->k; i++) {
		const struct pmr_icost_top_row *r = m[i];
		const char *proc = v->proc ? v->proc(r->pc, v->arg) : NULL;
		double pc_ = v->t > 0 ? 100.0 * (double)r->cost / (double)v->t :
		    0, pi = v->t > 0 ? 100.0 * (double)r->icost /
		    (double)v->t : 0;

		if (v->fmt == PMR_TABLE_TEXT) {
			pmr_grid_putf(&g, "0x%" PRIx64, r->pc);
			pmr_grid_put(&g, proc ? proc : "-");
			pmr_grid_put(&g, pmr_insn_class_name(r->cls));
			pmr_grid_putf(&g, "%" PRIu64, r->execs);
			pmr_grid_putf(&g, "%.1f", pc_);
			pmr_grid_putf(&g, "%" PRId64, r->cost);
			pmr_grid_putf(&g, "%" PRId64, r->bound);
			if (v->with) {
				pmr_grid_putf(&g, "%.1f", pi);
				pmr_grid_putf(&g, "%" PRId64, r->icost);
			}
		} else {
			char pcb[24];
			struct pmr_tval fl[] = {
				PMR_TVS("pc", pcb, 1),
				PMR_TVS("proc", proc ? proc : "-", 0),
				PMR_TVS("class", pmr_insn_class_name(r->cls), 0),
				PMR_TVU("execs", r->execs, 0),
				PMR_TVN("percent", pc_, "%.4f"),
				PMR_TVN("cycles", (double)r->cost, "%.0f"),
				PMR_TVN("bound", (double)r->bound, "%.0f"),
				PMR_TVS("with", v->with ? v->with : "-", 0),
				PMR_TVN("icost_percent", v->with ? pi : NAN,
				    "%.4f"),
				PMR_TVN("icost_cycles", v->with ?
				    (double)r->icost : NAN, "%.0f"),
			};

			snprintf(pcb, sizeof(pcb), "0x%" PRIx64, r->pc);
			pmr_table_line(f, v->fmt, "top", NULL, &seen, fl,
			    sizeof(fl) / sizeof(fl[0]));
		}
	}
	free(m);
	if (v->fmt == PMR_TABLE_TEXT && pmr_grid_print(&g, f) != 0)
		return -1;
	return ferror(f) ? -1 : 0;
}
