/*
 * eval.c: the paper's error metric (Multi-Hash, HPCA-9, §5.5.1-5.5.2, eq. 1).
 *
 * For each interval the hardware candidates are compared with the perfect
 * interval profiler of the same L and T over U, the union of both
 * candidate sets.  Each tuple of U has its perfect frequency fp and its
 * hardware frequency fh (0 if the hardware does not report it), and the
 * interval's error is Σ|fp − fh| / Σfp, split into false positives
 * (hardware only), false negatives (perfect only), neutral positives
 * (both, fh > fp) and neutral negatives (both, fh < fp).  E is never
 * clamped: a false positive with fp = 1 may add far more than 100%.
 * E_net is the unweighted mean over intervals; intervals whose U is empty
 * are excluded unless asked for, and so is a final partial interval.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/mhash.h"

const char *
pmr_mhash_class_name(enum pmr_mhash_class c)
{
	static const char *const names[] = { "ok", "NP", "NN", "FP", "FN" };

	return (unsigned)c < 5 ? names[c] : "?";
}

static int
row_cmp(const void *a, const void *b)
{
	const struct pmr_mhash_row *x = a, *y = b;

	if (x->fp != y->fp)
		return x->fp > y->fp ? -1 : 1;
	if (x->fh != y->fh)
		return x->fh > y->fh ? -1 : 1;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return 0;
}

static int
key_cmp(const void *a, const void *b)
{
	const struct pmr_mhash_row *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return 0;
}

void
pmr_mhash_err_rows(struct pmr_mhash_row *rows, size_t n, uint64_t t,
    struct pmr_mhash_err *e)
{
	struct pmr_mhash_row *r;
	uint64_t d;
	size_t i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < n; i++) {
		r = &rows[i];
		d = r->fp > r->fh ? r->fp - r->fh : r->fh - r->fp;
		e->sum_fp += r->fp;
		e->n_union++;
		if (r->fp >= t)
			e->n_exact++;
		if (r->cls != PMR_MHASH_FN)
			e->n_hw++;
		if (r->cls == PMR_MHASH_FN) {
			e->n_fn++;
			e->d_fn += d;
		} else if (r->fp < t) {
			r->cls = PMR_MHASH_FP;
			e->n_fp++;
			e->d_fp += d;
		} else if (r->fh > r->fp) {
			r->cls = PMR_MHASH_NP;
			e->n_np++;
			e->d_np += d;
		} else if (r->fh < r->fp) {
			r->cls = PMR_MHASH_NN;
			e->n_nn++;
			e->d_nn += d;
		} else {
			r->cls = PMR_MHASH_OK;
			e->n_ok++;
		}
	}
	if (e->sum_fp > 0) {
		e->e_np = (double)e->d_np / e->sum_fp;
		e->e_nn = (double)e->d_nn / e->sum_fp;
		e->e_fp = (double)e->d_fp / e->sum_fp;
		e->e_fn = (double)e->d_fn / e->sum_fp;
		e->e = (double)(e->d_np + e->d_nn + e->d_fp + e->d_fn) /
		    e->sum_fp;
	}
}

void
pmr_mhash_eval(const struct pmr_mhash *ex, const struct pmr_mhash_cand *hw,
    size_t nhw, struct pmr_mhash_err *e, struct pmr_mhash_row *rows,
    size_t *nrows)
{
	const struct pmr_mhash_cand *pc;
	struct pmr_mhash_row *u = rows, *r;
	size_t npc, i, j, n = 0, nh;
	uint64_t t = pmr_mhash_cfg(ex)->thresh;

	pc = pmr_mhash_result(ex, &npc);
	if (u == NULL) {
		u = malloc((nhw + npc + 1) * sizeof(*u));
		if (u == NULL) {	/* cannot happen for sane sizes */
			memset(e, 0, sizeof(*e));
			if (nrows != NULL)
				*nrows = 0;
			return;
		}
	}
	/* Hardware candidates first, with their exact counts... */
	for (i = 0; i < nhw; i++) {
		r = &u[n++];
		r->pc = hw[i].pc;
		r->value = hw[i].value;
		r->fh = hw[i].count;
		r->fp = pmr_mhash_exact_count(ex, hw[i].pc, hw[i].value);
		r->cls = PMR_MHASH_OK;
	}
	/* ...then perfect candidates the hardware missed (fh := 0). */
	nh = n;
	qsort(u, nh, sizeof(*u), key_cmp);
	for (j = 0; j < npc; j++) {
		struct pmr_mhash_row key = { pc[j].pc, pc[j].value, 0, 0, 0 };

		if (nh > 0 && bsearch(&key, u, nh, sizeof(*u), key_cmp) != NULL)
			continue;
		r = &u[n++];
		r->pc = pc[j].pc;
		r->value = pc[j].value;
		r->fh = 0;
		r->fp = pc[j].count;
		r->cls = PMR_MHASH_FN;
	}
	pmr_mhash_err_rows(u, n, t, e);
	qsort(u, n, sizeof(*u), row_cmp);
	if (nrows != NULL)
		*nrows = n;
	if (u != rows)
		free(u);
}

void
pmr_mhash_enet_add(struct pmr_mhash_enet *a, const struct pmr_mhash_err *e,
    int partial)
{
	if (partial && !a->with_partial) {
		a->partial++;
		return;
	}
	if (e->n_union == 0) {
		a->empty++;
		if (!a->empty_zero)
			return;
	}
	a->intervals++;
	a->s_e += e->e;
	a->s_np += e->e_np;
	a->s_nn += e->e_nn;
	a->s_fp += e->e_fp;
	a->s_fn += e->e_fn;
	a->n_ok += e->n_ok;
	a->n_np += e->n_np;
	a->n_nn += e->n_nn;
	a->n_fp += e->n_fp;
	a->n_fn += e->n_fn;
	if (e->e > a->max_e)
		a->max_e = e->e;
}

double
pmr_mhash_enet(const struct pmr_mhash_enet *a, double parts[4])
{
	double n = a->intervals > 0 ? (double)a->intervals : 1;

	if (parts != NULL) {
		parts[0] = a->s_np / n;
		parts[1] = a->s_nn / n;
		parts[2] = a->s_fp / n;
		parts[3] = a->s_fn / n;
	}
	return a->s_e / n;
}

double
pmr_mhash_fp_bound(unsigned n, double z, double t_pct)
{
	return pow(100.0 * n / (t_pct * z), (double)n);
}

static int
cand_key_cmp(const void *a, const void *b)
{
	const struct pmr_mhash_cand *x = a, *y = b;

	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return 0;
}

double
pmr_mhash_churn(const struct pmr_mhash_cand *prev, size_t nprev,
    const struct pmr_mhash_cand *cur, size_t ncur)
{
	struct pmr_mhash_cand *p;
	size_t i, fresh = 0;

	if (ncur == 0)
		return 0;
	if (nprev == 0)
		return 1;
	if ((p = malloc(nprev * sizeof(*p))) == NULL)
		return -1;
	memcpy(p, prev, nprev * sizeof(*p));
	qsort(p, nprev, sizeof(*p), cand_key_cmp);
	for (i = 0; i < ncur; i++)
		if (bsearch(&cur[i], p, nprev, sizeof(*p), cand_key_cmp) ==
		    NULL)
			fresh++;
	free(p);
	return (double)fresh / (double)ncur;
}
