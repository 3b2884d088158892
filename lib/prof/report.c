/*
 * report.c: pmprof's reports and exports (report.h) over the groups of
 * prof.c: the DCPI tables (SOSP '97 §3: dcpiprof, dcpilist, dcpistats,
 * dcpidiff), the scores against TRUTH (the TIP paper's error, MICRO '21
 * §5), callgrind's format and folded stacks.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prof/pprof.h"
#include "prof/report.h"
#include "sym/sym.h"
#include "util/table.h"

#define PCT(x, t) ((t) > 0 ? (x) / (t) : 0.0)

/* The name of a procedure row: its symbol, "unknown" (no image),
 * "[no symbols]" (the image's symbols could not be read: the note says
 * why) or "[outside symbols]" (the pcs of the image in no symbol: a
 * stripped library's local functions, named by its debug file). */
static const char *
row_proc(struct pmr_prof *p, const struct pmr_prof_row *r)
{
	if (r->img < 0)
		return "unknown";
	if (r->proc != NULL)
		return r->proc;
	return pmr_images_status(pmr_prof_images(p), (size_t)r->img) != 0 ?
	    "[no symbols]" : "[outside symbols]";
}

static const char *
row_image(struct pmr_prof *p, const struct pmr_prof_row *r)
{
	return r->img < 0 ? "unknown" :
	    pmr_images_get(pmr_prof_images(p), (size_t)r->img)->path;
}

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* Sorting rows by one value, largest first, then by address. */
struct keyed {
	double k;
	size_t i;
};

static int
cmp_keyed(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->k != b->k)
		return a->k > b->k ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void
note_line(FILE *f, enum pmr_table_fmt fmt, const char *note)
{
	struct pmr_tval t[1] = { PMR_TVS("note", note, 1) };
	int seen = 0;

	if (note == NULL)
		return;
	if (fmt == PMR_TABLE_TEXT)
		fprintf(f, "note: %s\n", note);
	else
		pmr_table_line(f, fmt, "note", NULL, &seen, t, 1);
}

/* Column names "EVENT_pct" of the chosen events (one allocation). */
static char **
pct_names(struct pmr_prof *p, const struct pmr_prof_view *v)
{
	char **nm;
	size_t k;

	if ((nm = calloc(v->nev + 1, sizeof(*nm))) == NULL)
		return NULL;
	for (k = 0; k < v->nev; k++)
		if (asprintf(&nm[k], "%s_pct", pmr_prof_event(p, (size_t)v->ev[k])) <
		    0) {
			nm[k] = NULL;
			while (k-- > 0)
				free(nm[k]);
			free(nm);
			return NULL;
		}
	return nm;
}

static void
free_names(char **nm, size_t n)
{
	size_t k;

	if (nm == NULL)
		return;
	for (k = 0; k < n; k++)
		free(nm[k]);
	free(nm);
}

int
pmr_prof_report_flat(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, enum pmr_prof_by by)
{
	struct pmr_prof_row *rows;
	struct keyed *ord = NULL;
	struct pmr_tval *t = NULL;
	double *tot = NULL, cum = 0;
	char **nm = NULL;
	const char *note;
	size_t n, i, k, no = 0, shown;
	int rc, seen = 0;

	if ((rc = pmr_prof_group(p, by, 0, 0, UINT64_MAX, &rows, &n,
	    &note)) != 0)
		return rc;
	rc = PMR_ENOMEM;
	if ((tot = calloc(v->nev + 1, sizeof(*tot))) == NULL ||
	    (ord = calloc(n + 1, sizeof(*ord))) == NULL ||
	    (t = calloc(2 * v->nev + 4, sizeof(*t))) == NULL ||
	    (nm = pct_names(p, v)) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		int any = 0;

		for (k = 0; k < v->nev; k++) {
			tot[k] += rows[i].v[v->ev[k]];
			any |= rows[i].v[v->ev[k]] != 0;
		}
		if (any) {
			ord[no].k = rows[i].v[v->ev[0]];
			ord[no++].i = i;
		}
	}
	qsort(ord, no, sizeof(*ord), cmp_keyed);
	shown = v->top && v->top < no ? v->top : no;
	if (v->fmt == PMR_TABLE_TEXT) {
		struct pmr_grid g;

		fprintf(f, "Total samples for event type");
		for (k = 0; k < v->nev; k++)
			fprintf(f, "%s %s = %.0f", k ? "," : "",
			    pmr_prof_event(p, (size_t)v->ev[k]), tot[k]);
		fprintf(f, "\n");
		pmr_grid_init(&g, 2 * v->nev + 1 + (by == PMR_PROF_BY_PROC) +
		    1);
		for (k = 0; k < v->nev; k++) {
			pmr_grid_put(&g, pmr_prof_event(p, (size_t)v->ev[k]));
			pmr_grid_put(&g, "%");
			if (k == 0)
				pmr_grid_put(&g, "cum%");
		}
		if (by == PMR_PROF_BY_PROC)
			pmr_grid_put(&g, "procedure");
		pmr_grid_put(&g, "image");
		for (i = 0; i < shown; i++) {
			const struct pmr_prof_row *r = &rows[ord[i].i];

			for (k = 0; k < v->nev; k++) {
				double x = r->v[v->ev[k]];

				pmr_grid_putf(&g, "%.0f", x);
				pmr_grid_putf(&g, "%.2f%%", 100 *
				    PCT(x, tot[k]));
				if (k == 0) {
					cum += x;
					pmr_grid_putf(&g, "%.2f%%", 100 *
					    PCT(cum, tot[0]));
				}
			}
			if (by == PMR_PROF_BY_PROC)
				pmr_grid_put(&g, row_proc(p, r));
			pmr_grid_put(&g, row_image(p, r));
		}
		if (pmr_grid_print(&g, f) != 0)
			goto out;
	} else {
		for (i = 0; i < shown; i++) {
			const struct pmr_prof_row *r = &rows[ord[i].i];
			size_t m = 0;

			for (k = 0; k < v->nev; k++) {
				double x = r->v[v->ev[k]];
				struct pmr_tval a = PMR_TVU(pmr_prof_event(p,
				    (size_t)v->ev[k]), (uint64_t)llround(x), 0);
				struct pmr_tval b = PMR_TVP(nm[k],
				    PCT(x, tot[k]), 0);

				t[m++] = a;
				t[m++] = b;
				if (k == 0) {
					struct pmr_tval c = PMR_TVP("cum_pct",
					    PCT(cum += x, tot[0]), 0);

					t[m++] = c;
				}
			}
			if (by == PMR_PROF_BY_PROC) {
				struct pmr_tval a = PMR_TVS("procedure",
				    row_proc(p, r), 0);

				t[m++] = a;
			}
			{
				struct pmr_tval a = PMR_TVS("image",
				    row_image(p, r), 0);

				t[m++] = a;
			}
			pmr_table_line(f, v->fmt, by == PMR_PROF_BY_PROC ?
			    "proc" : "image", NULL, &seen, t, m);
		}
	}
	note_line(f, v->fmt, note);
	rc = 0;
out:
	free(tot);
	free(ord);
	free(t);
	free_names(nm, v->nev);
	return rc;
}

/* --- list ------------------------------------------------------------ */

static const char *const latname[] = { "lat:fm", "lat:md", "lat:dx",
	"lat:xr", "lat:rr" };

int
pmr_prof_report_list(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char *proc, const char **msg)
{
	static char buf[512];
	struct pmr_images *im = pmr_prof_images(p);
	struct pmr_prof_insn *in = NULL;
	struct pmr_prof_row *rows;
	struct pmr_tval *t = NULL;
	struct pmr_grid g;
	long lat[5], nlat = pmr_prof_event_find(p, "lat:n");
	long tr = pmr_prof_event_find(p, "truth:retired");
	long tc = pmr_prof_event_find(p, "truth:cycles");
	double *bsum = NULL, *tot = NULL, listed = 0;
	uint64_t lo, hi;
	size_t img, ni, nr, i, k, j, nb = 0, ncol, blk = 0;
	int rc, seen = 0, seenb = 0, haslat, text = v->fmt == PMR_TABLE_TEXT;

	*msg = NULL;
	if (!pmr_images_proc(im, proc, &img, &lo, &hi)) {
		snprintf(buf, sizeof(buf), "no procedure '%s' in the images' "
		    "symbols", proc);
		*msg = buf;
		return PMR_EINVAL;
	}
	if ((rc = pmr_prof_code(p, img, lo, hi, &in, &ni)) != 0) {
		snprintf(buf, sizeof(buf), "'%s': %s",
		    pmr_images_get(im, img)->path, pmr_sym_strerror(rc));
		*msg = buf;
		return rc;
	}
	if ((rc = pmr_prof_group(p, PMR_PROF_BY_INSN, 0, lo, hi, &rows, &nr,
	    NULL)) != 0)
		goto out;
	for (k = 0; k < 5; k++)
		lat[k] = pmr_prof_event_find(p, latname[k]);
	haslat = nlat >= 0 && lat[4] >= 0;
	rc = PMR_ENOMEM;
	ncol = 1 + v->nev + (haslat ? 5 : 0) + (tr >= 0) + (tc >= 0) + 1;
	if ((bsum = calloc(v->nev + 2, sizeof(*bsum))) == NULL ||
	    (tot = calloc(v->nev + 2, sizeof(*tot))) == NULL ||
	    (t = calloc(ncol + 2, sizeof(*t))) == NULL)
		goto out;
	for (i = 0; i < ni; i++)
		nb += in[i].leader;
	for (j = 0; j < nr; j++)
		for (k = 0; k < v->nev; k++)
			tot[k] += rows[j].v[v->ev[k]];
	if (text) {
		fprintf(f, "procedure %s in %s [0x%" PRIx64 ", 0x%" PRIx64
		    "): %zu instructions, %zu basic blocks\nsamples:", proc,
		    pmr_images_get(im, img)->path, lo, hi, ni, nb);
		for (k = 0; k < v->nev; k++)
			fprintf(f, "%s %s %.0f", k ? "," : "",
			    pmr_prof_event(p, (size_t)v->ev[k]), tot[k]);
		fprintf(f, "\n");
		pmr_grid_init(&g, ncol);
		pmr_grid_put(&g, "address");
		for (k = 0; k < v->nev; k++)
			pmr_grid_put(&g, pmr_prof_event(p, (size_t)v->ev[k]));
		if (haslat)
			for (k = 0; k < 5; k++)
				pmr_grid_put(&g, latname[k] + 4);
		if (tr >= 0)
			pmr_grid_put(&g, "retired");
		if (tc >= 0)
			pmr_grid_put(&g, "cycles");
		pmr_grid_put(&g, "instruction");
	}
	for (i = 0, j = 0; i < ni; i++) {
		const double *x = NULL;
		size_t m = 0;

		while (j < nr && rows[j].lo < in[i].pc)
			j++;
		if (j < nr && rows[j].lo == in[i].pc) {
			x = rows[j].v;
			listed += x[v->ev[0]];
		}
		if (in[i].leader) {
			size_t e;

			/* the block's totals, from here to its end */
			memset(bsum, 0, (v->nev + 2) * sizeof(*bsum));
			for (e = i; e < ni && (e == i || !in[e].leader); e++) {
				size_t q = j;

				while (q < nr && rows[q].lo < in[e].pc)
					q++;
				if (q < nr && rows[q].lo == in[e].pc)
					for (k = 0; k < v->nev; k++)
						bsum[k] += rows[q].v[v->ev[k]];
			}
			blk = i;
			if (text) {
				pmr_grid_putf(&g, "block 0x%" PRIx64,
				    in[i].pc);
				for (k = 0; k < v->nev; k++)
					pmr_grid_putf(&g, "%.0f", bsum[k]);
				for (k = 1 + v->nev; k < ncol - 1; k++)
					pmr_grid_put(&g, "");
				pmr_grid_putf(&g, "(%zu instructions)", e - i);
			} else {
				struct pmr_tval a = PMR_TVX("block",
				    in[i].pc);

				t[m++] = a;
				for (k = 0; k < v->nev; k++) {
					struct pmr_tval b = PMR_TVU(
					    pmr_prof_event(p, (size_t)v->ev[k]),
					    (uint64_t)llround(bsum[k]), 0);

					t[m++] = b;
				}
				{
					struct pmr_tval b = PMR_TVU("insns",
					    e - i, 0);

					t[m++] = b;
				}
				pmr_table_line(f, v->fmt, "block", NULL,
				    &seenb, t, m);
				m = 0;
			}
		}
		if (text) {
			pmr_grid_putf(&g, "0x%" PRIx64, in[i].pc);
			for (k = 0; k < v->nev; k++)
				pmr_grid_putf(&g, "%.0f", x != NULL ?
				    x[v->ev[k]] : 0.0);
			if (haslat) {
				double nn = x != NULL ? x[nlat] : 0;

				for (k = 0; k < 5; k++) {
					if (nn > 0)
						pmr_grid_putf(&g, "%.1f",
						    x[lat[k]] / nn);
					else
						pmr_grid_put(&g, "-");
				}
			}
			if (tr >= 0)
				pmr_grid_putf(&g, "%.0f", x != NULL ? x[tr] :
				    0.0);
			if (tc >= 0)
				pmr_grid_putf(&g, "%.1f", x != NULL ? x[tc] :
				    0.0);
			pmr_grid_put(&g, in[i].text);
			continue;
		}
		{
			struct pmr_tval a = PMR_TVX("pc", in[i].pc);
			struct pmr_tval b = PMR_TVX("block", in[blk].pc);

			t[m++] = a;
			t[m++] = b;
		}
		for (k = 0; k < v->nev; k++) {
			struct pmr_tval a = PMR_TVU(pmr_prof_event(p,
			    (size_t)v->ev[k]), x != NULL ?
			    (uint64_t)llround(x[v->ev[k]]) : 0, 0);

			t[m++] = a;
		}
		if (haslat)
			for (k = 0; k < 5; k++) {
				double nn = x != NULL ? x[nlat] : 0;
				struct pmr_tval a = PMR_TVN(latname[k],
				    nn > 0 ? x[lat[k]] / nn : NAN, "%.2f");

				t[m++] = a;
			}
		if (tr >= 0) {
			struct pmr_tval a = PMR_TVU("retired", x != NULL ?
			    (uint64_t)x[tr] : 0, 0);

			t[m++] = a;
		}
		if (tc >= 0) {
			struct pmr_tval a = PMR_TVN("cycles", x != NULL ?
			    x[tc] : 0.0, "%.3f");

			t[m++] = a;
		}
		{
			struct pmr_tval a = PMR_TVS("instruction",
			    in[i].text, 0);

			t[m++] = a;
		}
		pmr_table_line(f, v->fmt, "insn", NULL, &seen, t, m);
	}
	if (text && pmr_grid_print(&g, f) != 0)
		goto out;
	if (tot[0] > listed) {
		/* a wrong path fetches from any address: pcs inside the
		 * procedure that no instruction starts at */
		snprintf(buf, sizeof(buf), "%.0f samples of %s at pcs that "
		    "start no instruction of the listing (wrong-path fetch)",
		    tot[0] - listed, pmr_prof_event(p, (size_t)v->ev[0]));
		note_line(f, v->fmt, buf);
	}
	rc = 0;
out:
	free(in);
	free(bsum);
	free(tot);
	free(t);
	return rc;
}

/* --- score ----------------------------------------------------------- */

static const char *const byname[] = { "image", "proc", "block", "insn" };
static char skipped_msg[512];

/* Appends name to the comma-separated list in buf (len bytes). */
static void
skipped_add(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

int
pmr_prof_report_score(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char **msg)
{
	static const enum pmr_prof_by bys[3] = { PMR_PROF_BY_INSN,
		PMR_PROF_BY_BLOCK, PMR_PROF_BY_PROC };
	long tc = pmr_prof_event_find(p, "truth:cycles");
	long tr = pmr_prof_event_find(p, "truth:retired");
	size_t nrun = pmr_prof_nrun(p), nev = pmr_prof_nevent(p);
	struct pmr_prof_row *rows;
	struct pmr_grid g;
	double *est = NULL, *c = NULL, *r = NULL;
	char *use = NULL, skipped[400] = "";
	const char *note = NULL;
	size_t scored = 0, j;
	size_t n, i, k, b, run;
	int rc, seen = 0, text = v->fmt == PMR_TABLE_TEXT;

	*msg = NULL;
	if (tc < 0 || tr < 0) {
		*msg = "no TRUTH records to score against (pmsim --truth)";
		return PMR_EINVAL;
	}
	if (text) {
		pmr_grid_init(&g, 7);
		pmr_grid_put(&g, "event");
		pmr_grid_put(&g, "by");
		pmr_grid_put(&g, "samples");
		pmr_grid_put(&g, "err(cycles)");
		pmr_grid_put(&g, "floor");
		pmr_grid_put(&g, "err(retired)");
		pmr_grid_put(&g, "floor");
	}
	rc = PMR_ENOMEM;
	if ((use = calloc(nrun + 1, 1)) == NULL)
		goto out;
	for (b = 0; b < 3; b++) {
		if ((rc = pmr_prof_group(p, bys[b], 1, 0, UINT64_MAX, &rows,
		    &n, b == 1 ? &note : NULL)) != 0)
			goto out;
		rc = PMR_ENOMEM;
		free(est);
		free(c);
		free(r);
		est = calloc(n + 1, sizeof(*est));
		c = calloc(n + 1, sizeof(*c));
		r = calloc(n + 1, sizeof(*r));
		if (est == NULL || c == NULL || r == NULL)
			goto out;
		for (j = 0; j < v->nev; j++) {
			double tot = 0, e_c, f_c, e_r, f_r;

			k = (size_t)v->ev[j];	/* the chosen samplers */
			if (pmr_prof_evkind(p, k) != PMR_PROF_EV_SAMPLE)
				continue;
			/* the truth of the runs that hold this sampler */
			memset(use, 0, nrun);
			for (i = 0; i < n; i++)
				for (run = 0; run < nrun; run++)
					if (rows[i].v[run * nev + k] != 0)
						use[run] = 1;
			/* a run of this sampler without TRUTH: its samples
			 * would be scored against the other runs' truth */
			for (run = 0; run < nrun; run++)
				if (use[run] &&
				    !pmr_prof_runinfo(p, run)->has_truth)
					break;
			if (run < nrun) {
				if (b == 0)
					skipped_add(skipped, sizeof(skipped),
					    pmr_prof_event(p, k));
				continue;
			}
			scored++;
			for (i = 0; i < n; i++) {
				est[i] = c[i] = r[i] = 0;
				for (run = 0; run < nrun; run++) {
					const double *x = rows[i].v +
					    run * nev;

					if (!use[run])
						continue;
					est[i] += x[k];
					c[i] += x[tc];
					r[i] += x[tr];
				}
				tot += est[i];
			}
			e_c = pmr_prof_error(est, c, n);
			e_r = pmr_prof_error(est, r, n);
			f_c = pmr_prof_floor(c, n, (uint64_t)tot);
			f_r = pmr_prof_floor(r, n, (uint64_t)tot);
			if (text) {
				pmr_grid_put(&g, pmr_prof_event(p, k));
				pmr_grid_put(&g, byname[bys[b]]);
				pmr_grid_putf(&g, "%.0f", tot);
				pmr_grid_putf(&g, "%.2f%%", 100 * e_c);
				pmr_grid_putf(&g, "%.2f%%", 100 * f_c);
				pmr_grid_putf(&g, "%.2f%%", 100 * e_r);
				pmr_grid_putf(&g, "%.2f%%", 100 * f_r);
			} else {
				struct pmr_tval t[7] = {
					PMR_TVS("event", pmr_prof_event(p, k),
					    1),
					PMR_TVS("by", byname[bys[b]], 0),
					PMR_TVU("samples", (uint64_t)tot, 0),
					PMR_TVN("err_cycles", e_c, "%.6f"),
					PMR_TVN("floor_cycles", f_c, "%.6f"),
					PMR_TVN("err_retired", e_r, "%.6f"),
					PMR_TVN("floor_retired", f_r, "%.6f"),
				};

				pmr_table_line(f, v->fmt, "error", NULL,
				    &seen, t, 7);
			}
		}
	}
	if (scored == 0) {
		snprintf(skipped_msg, sizeof(skipped_msg), "no sampler's runs "
		    "all have TRUTH (pmsim --truth): %s", skipped);
		*msg = skipped_msg;
		rc = PMR_EINVAL;
		goto out;
	}
	if (text && pmr_grid_print(&g, f) != 0) {
		text = 0;
		goto out;
	}
	text = 0;
	if (skipped[0] != '\0') {
		char nb[480];

		snprintf(nb, sizeof(nb), "not scored, some of its runs have no "
		    "TRUTH: %s", skipped);
		note_line(f, v->fmt, nb);
	}
	if (v->detail) {
		long e = v->ev[0];
		double E = 0, C = 0, R = 0;
		int seen2 = 0;

		if ((rc = pmr_prof_group(p, v->by, 0, 0, UINT64_MAX, &rows,
		    &n, NULL)) != 0)
			goto out;
		for (i = 0; i < n; i++) {
			E += rows[i].v[e];
			C += rows[i].v[tc];
			R += rows[i].v[tr];
		}
		for (i = 0; i < n; i++) {
			const struct pmr_prof_row *w = &rows[i];
			struct pmr_tval t[8] = {
				PMR_TVX("lo", w->lo),
				PMR_TVS("event", pmr_prof_event(p, (size_t)e),
				    0),
				PMR_TVU("samples", (uint64_t)w->v[e], 0),
				PMR_TVP("est_pct", PCT(w->v[e], E), 0),
				PMR_TVP("cycles_pct", PCT(w->v[tc], C), 0),
				PMR_TVP("retired_pct", PCT(w->v[tr], R), 0),
				PMR_TVS("procedure", row_proc(p, w), 0),
				PMR_TVS("image", row_image(p, w), 0),
			};

			if (w->v[e] == 0 && w->v[tc] == 0 && w->v[tr] == 0)
				continue;
			pmr_table_line(f, v->fmt == PMR_TABLE_TEXT ?
			    PMR_TABLE_TEXT : v->fmt, "row", NULL, &seen2, t,
			    8);
		}
	}
	note_line(f, v->fmt, note);
	rc = 0;
out:
	if (text)
		pmr_grid_free(&g);	/* failed: print nothing */
	free(est);
	free(c);
	free(r);
	free(use);
	return rc;
}

/* --- stats and diff -------------------------------------------------- */

/* A run without samples of the compared event would read as a run where
 * every procedure fell to zero: refused, naming the run. */
static const char *
run_without(struct pmr_prof *p, size_t run, long e)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "run '%s' has no samples of %s: the runs "
	    "compared need the same sampler (-e)",
	    pmr_prof_runinfo(p, run)->name, pmr_prof_event(p, (size_t)e));
	return buf;
}

/* A procedure row's name key: its name and its image's file name. */
struct namekey {
	char *key;
	size_t i;
};

static int
cmp_namekey(const void *x, const void *y)
{
	const struct namekey *a = x, *b = y;
	int c = strcmp(a->key, b->key);

	return c != 0 ? c : a->i < b->i ? -1 : a->i > b->i;
}

/*
 * Merges the procedure rows (per run, stride values each) that have the
 * same name in images of the same file name: runs of two builds of a
 * program (another build-id, another directory) map their procedures to
 * other addresses, and DCPI's dcpidiff matches them by name.  Sets *out
 * (caller frees it and (*out)->v, one block) and *nout.  Returns 0 or
 * PMR_ENOMEM.
 */
static int
merge_by_name(struct pmr_prof *p, const struct pmr_prof_row *rows, size_t n,
    size_t stride, struct pmr_prof_row **out, size_t *nout)
{
	struct namekey *k;
	struct pmr_prof_row *m = NULL;
	double *v = NULL;
	size_t i, j, nm = 0;
	int rc = PMR_ENOMEM;

	*out = NULL;
	*nout = 0;
	if ((k = calloc(n + 1, sizeof(*k))) == NULL)
		return rc;
	for (i = 0; i < n; i++) {
		k[i].i = i;
		if (asprintf(&k[i].key, "%s\t%s", row_proc(p, &rows[i]),
		    base_name(row_image(p, &rows[i]))) < 0) {
			k[i].key = NULL;
			goto out;
		}
	}
	qsort(k, n, sizeof(*k), cmp_namekey);
	if ((m = calloc(n + 1, sizeof(*m))) == NULL ||
	    (v = calloc((n + 1) * stride + 1, sizeof(*v))) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(k[i].key, k[i - 1].key) != 0) {
			m[nm] = rows[k[i].i];
			m[nm].v = v + nm * stride;
			nm++;
		}
		for (j = 0; j < stride; j++)
			m[nm - 1].v[j] += rows[k[i].i].v[j];
	}
	if (nm == 0)
		m[0].v = v;	/* the block the caller frees */
	*out = m;
	*nout = nm;
	m = NULL;
	v = NULL;
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(k[i].key);
	free(k);
	free(m);
	free(v);
	return rc;
}

int
pmr_prof_report_stats(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char **msg)
{
	size_t nrun = pmr_prof_nrun(p), nev = pmr_prof_nevent(p);
	struct pmr_prof_row *grows, *rows = NULL;
	struct keyed *ord = NULL;
	double *tot = NULL, total = 0;
	long e = v->ev[0];
	size_t n, i, run, no = 0, shown;
	int rc, seen = 0;

	*msg = NULL;
	if (nrun < 2) {
		*msg = "stats needs two runs or more (one file or epoch each)";
		return PMR_EINVAL;
	}
	if ((rc = pmr_prof_group(p, PMR_PROF_BY_PROC, 1, 0, UINT64_MAX,
	    &grows, &n, NULL)) != 0 ||
	    (rc = merge_by_name(p, grows, n, nrun * nev, &rows, &n)) != 0)
		return rc;
	rc = PMR_ENOMEM;
	if ((tot = calloc(nrun, sizeof(*tot))) == NULL ||
	    (ord = calloc(n + 1, sizeof(*ord))) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		double s = 0, mn = INFINITY, mx = 0;

		for (run = 0; run < nrun; run++) {
			double x = rows[i].v[run * nev + e];

			tot[run] += x;
			s += x;
			mn = x < mn ? x : mn;
			mx = x > mx ? x : mx;
		}
		total += s;
		if (s > 0) {
			ord[no].k = (mx - mn) / s;
			ord[no++].i = i;
		}
	}
	for (run = 0; run < nrun; run++)
		if (tot[run] == 0) {
			*msg = run_without(p, run, e);
			rc = PMR_EINVAL;
			goto out;
		}
	qsort(ord, no, sizeof(*ord), cmp_keyed);
	shown = v->top && v->top < no ? v->top : no;
	if (v->fmt == PMR_TABLE_TEXT) {
		fprintf(f, "Number of samples of type %s\n",
		    pmr_prof_event(p, (size_t)e));
		for (run = 0; run < nrun; run++)
			fprintf(f, "set %zu = %.0f  ", run + 1, tot[run]);
		fprintf(f, "TOTAL %.0f\nStatistics calculated using the "
		    "sample counts for each procedure from %zu different "
		    "sample set(s)\n", total, nrun);
	}
	{
		struct pmr_grid g;

		if (v->fmt == PMR_TABLE_TEXT) {
			static const char *const h[] = { "range%", "sum",
				"sum%", "N", "mean", "std-dev", "min", "max",
				"procedure", "image" };

			pmr_grid_init(&g, 10);
			for (i = 0; i < 10; i++)
				pmr_grid_put(&g, h[i]);
		}
		for (i = 0; i < shown; i++) {
			const struct pmr_prof_row *r = &rows[ord[i].i];
			double s = 0, ss = 0, mn = INFINITY, mx = 0, mean, sd;

			for (run = 0; run < nrun; run++) {
				double x = r->v[run * nev + e];

				s += x;
				mn = x < mn ? x : mn;
				mx = x > mx ? x : mx;
			}
			mean = s / (double)nrun;
			for (run = 0; run < nrun; run++) {
				double d = r->v[run * nev + e] - mean;

				ss += d * d;
			}
			sd = sqrt(ss / (double)(nrun - 1));
			if (v->fmt == PMR_TABLE_TEXT) {
				pmr_grid_putf(&g, "%.2f%%", 100 * ord[i].k);
				pmr_grid_putf(&g, "%.2f", s);
				pmr_grid_putf(&g, "%.2f%%", 100 *
				    PCT(s, total));
				pmr_grid_putf(&g, "%zu", nrun);
				pmr_grid_putf(&g, "%.2f", mean);
				pmr_grid_putf(&g, "%.2f", sd);
				pmr_grid_putf(&g, "%.2f", mn);
				pmr_grid_putf(&g, "%.2f", mx);
				pmr_grid_put(&g, row_proc(p, r));
				pmr_grid_put(&g, row_image(p, r));
			} else {
				struct pmr_tval t[10] = {
					PMR_TVP("range_pct", ord[i].k, 0),
					PMR_TVU("sum", (uint64_t)s, 0),
					PMR_TVP("sum_pct", PCT(s, total), 0),
					PMR_TVU("n", nrun, 0),
					PMR_TVN("mean", mean, "%.2f"),
					PMR_TVN("sd", sd, "%.2f"),
					PMR_TVU("min", (uint64_t)mn, 0),
					PMR_TVU("max", (uint64_t)mx, 0),
					PMR_TVS("procedure", row_proc(p, r), 0),
					PMR_TVS("image", row_image(p, r), 0),
				};

				pmr_table_line(f, v->fmt, "stats", NULL,
				    &seen, t, 10);
			}
		}
		if (v->fmt == PMR_TABLE_TEXT && pmr_grid_print(&g, f) != 0)
			goto out;
	}
	rc = 0;
out:
	free(tot);
	free(ord);
	if (rows != NULL)
		free(rows[0].v);
	free(rows);
	return rc;
}

int
pmr_prof_report_diff(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v, const char **msg)
{
	size_t nev = pmr_prof_nevent(p);
	struct pmr_prof_row *grows, *rows = NULL;
	struct keyed *ord = NULL;
	double *pv = NULL, *z = NULL, A = 0, B = 0;
	char *sig = NULL;
	long e = v->ev[0];
	size_t n, i, no = 0, shown, nsig = 0;
	int rc, seen = 0;

	*msg = NULL;
	if (pmr_prof_nrun(p) != 2) {
		*msg = "diff compares two runs: give two files (or epochs)";
		return PMR_EINVAL;
	}
	if ((rc = pmr_prof_group(p, PMR_PROF_BY_PROC, 1, 0, UINT64_MAX,
	    &grows, &n, NULL)) != 0 ||
	    (rc = merge_by_name(p, grows, n, 2 * nev, &rows, &n)) != 0)
		return rc;
	rc = PMR_ENOMEM;
	if ((ord = calloc(n + 1, sizeof(*ord))) == NULL ||
	    (pv = calloc(n + 1, sizeof(*pv))) == NULL ||
	    (z = calloc(n + 1, sizeof(*z))) == NULL ||
	    (sig = calloc(n + 1, 1)) == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		A += rows[i].v[e];
		B += rows[i].v[nev + e];
	}
	if (A == 0 || B == 0) {
		*msg = run_without(p, A == 0 ? 0 : 1, e);
		rc = PMR_EINVAL;
		goto out;
	}
	for (i = 0; i < n; i++) {
		double a = rows[i].v[e], b = rows[i].v[nev + e], pa, pb, pp;
		double d, sd;

		if (a + b == 0 || A == 0 || B == 0)
			continue;
		/* the 2x2 table (this procedure or not, run A or B): the
		 * samples of a run are a multinomial draw from its time, so
		 * equal shares make the difference of the two proportions
		 * about normal with the pooled variance; Yates' continuity
		 * correction keeps small counts from looking significant */
		pa = a / A;
		pb = b / B;
		pp = (a + b) / (A + B);
		sd = sqrt(pp * (1 - pp) * (1 / A + 1 / B));
		d = fabs(pa - pb) - 0.5 * (1 / A + 1 / B);
		d = d > 0 ? d : 0;
		z[i] = sd > 0 ? (pa > pb ? d : -d) / sd : 0;
		pv[i] = erfc(fabs(z[i]) / M_SQRT2);
		ord[no].k = -pv[i];	/* smallest p first */
		ord[no++].i = i;
	}
	/* Holm: the (k+1)-th smallest p against alpha / (no - k), up to
	 * the first that fails */
	qsort(ord, no, sizeof(*ord), cmp_keyed);
	for (i = 0; i < no; i++) {
		if (pv[ord[i].i] > v->alpha / (double)(no - i))
			break;
		sig[ord[i].i] = 1;
		nsig++;
	}
	for (i = 0; i < no; i++)	/* largest |z| first */
		ord[i].k = fabs(z[ord[i].i]);
	qsort(ord, no, sizeof(*ord), cmp_keyed);
	shown = v->top && v->top < no ? v->top : no;
	if (v->fmt == PMR_TABLE_TEXT) {
		struct pmr_grid g;
		static const char *const h[] = { "A", "A%", "B", "B%",
			"delta", "z", "p", "", "procedure", "image" };

		fprintf(f, "Samples of type %s: A (%s) = %.0f, B (%s) = %.0f; "
		    "%zu of %zu procedures differ beyond sampling noise "
		    "(Holm, family-wise %.3g)\n",
		    pmr_prof_event(p, (size_t)e), pmr_prof_runinfo(p, 0)->name,
		    A, pmr_prof_runinfo(p, 1)->name, B, nsig, no, v->alpha);
		pmr_grid_init(&g, 10);
		for (i = 0; i < 10; i++)
			pmr_grid_put(&g, h[i]);
		for (i = 0; i < shown; i++) {
			const struct pmr_prof_row *r = &rows[ord[i].i];
			double a = r->v[e], b = r->v[nev + e];

			pmr_grid_putf(&g, "%.0f", a);
			pmr_grid_putf(&g, "%.2f%%", 100 * PCT(a, A));
			pmr_grid_putf(&g, "%.0f", b);
			pmr_grid_putf(&g, "%.2f%%", 100 * PCT(b, B));
			pmr_grid_putf(&g, "%+.2f", 100 * (PCT(b, B) -
			    PCT(a, A)));
			pmr_grid_putf(&g, "%.2f", z[ord[i].i]);
			pmr_grid_putf(&g, "%.2g", pv[ord[i].i]);
			pmr_grid_put(&g, sig[ord[i].i] ? "*" : "");
			pmr_grid_put(&g, row_proc(p, r));
			pmr_grid_put(&g, row_image(p, r));
		}
		if (pmr_grid_print(&g, f) != 0)
			goto out;
	} else
		for (i = 0; i < shown; i++) {
			const struct pmr_prof_row *r = &rows[ord[i].i];
			double a = r->v[e], b = r->v[nev + e];
			struct pmr_tval t[10] = {
				PMR_TVU("a", (uint64_t)a, 0),
				PMR_TVP("a_pct", PCT(a, A), 0),
				PMR_TVU("b", (uint64_t)b, 0),
				PMR_TVP("b_pct", PCT(b, B), 0),
				PMR_TVN("z", z[ord[i].i], "%.4f"),
				PMR_TVN("p", pv[ord[i].i], "%.6g"),
				PMR_TVU("significant", sig[ord[i].i], 0),
				PMR_TVS("procedure", row_proc(p, r), 0),
				PMR_TVS("image", row_image(p, r), 0),
				PMR_TVX("lo", r->lo),
			};

			pmr_table_line(f, v->fmt, "diff", NULL, &seen, t, 10);
		}
	rc = 0;
out:
	free(ord);
	free(pv);
	free(z);
	free(sig);
	if (rows != NULL)
		free(rows[0].v);
	free(rows);
	return rc;
}

/* --- exports --------------------------------------------------------- */

/* A callgrind event name: letters, digits and '_' only. */
static void
cg_name(char *out, size_t len, const char *in)
{
	size_t i;

	for (i = 0; in[i] != '\0' && i + 1 < len; i++)
		out[i] = (in[i] >= 'a' && in[i] <= 'z') || (in[i] >= 'A' &&
		    in[i] <= 'Z') || (in[i] >= '0' && in[i] <= '9') ? in[i] :
		    '_';
	out[i] = '\0';
}

/*
 * The columns of an export: the chosen events, summed over the runs, then
 * for each chosen cycle sampler (tip, last, counter:cycles, pebs:cycles)
 * its estimate of the cycles, "est:EVENT": each run's samples scaled so
 * that they add up to the run's cycles (its final STATS), the TIP paper's
 * scaled estimate.  rows are grouped per run.
 */
struct cols {
	size_t n;		/* columns */
	const char *name[2 * 64];
	char *own[64];		/* the names made here */
	int cycles[2 * 64];	/* unit: cycles */
	double *val;		/* nrows x n */
};

static int
is_cycle_sampler(const char *e)
{
	return strcmp(e, "tip") == 0 || strcmp(e, "last") == 0 ||
	    strcmp(e, "counter:cycles") == 0 || strcmp(e, "pebs:cycles") == 0;
}

static void
cols_free(struct cols *c)
{
	size_t k;

	for (k = 0; k < 64; k++)
		free(c->own[k]);
	free(c->val);
}

static int
cols_make(struct pmr_prof *p, const struct pmr_prof_view *v,
    const struct pmr_prof_row *rows, size_t n, struct cols *c)
{
	size_t nrun = pmr_prof_nrun(p) ? pmr_prof_nrun(p) : 1;
	size_t nev = pmr_prof_nevent(p), k, i, r, nown = 0, nest = 0;
	size_t m = v->nev < 64 ? v->nev : 64;
	long est[64];
	double *scale;

	memset(c, 0, sizeof(*c));
	for (k = 0; k < m; k++) {
		const char *e = pmr_prof_event(p, (size_t)v->ev[k]);

		c->name[c->n] = e;
		c->cycles[c->n++] = strcmp(e, "truth:cycles") == 0;
		if (is_cycle_sampler(e))
			est[nest++] = v->ev[k];
	}
	if ((scale = calloc(nrun * (nest + 1), sizeof(*scale))) == NULL)
		return PMR_ENOMEM;
	for (k = 0; k < nest; k++) {
		int any = 0;

		for (r = 0; r < nrun; r++) {
			double t = 0, cyc = pmr_prof_nrun(p) ?
			    (double)pmr_prof_runinfo(p, r)->cycles : 0;

			for (i = 0; i < n; i++)
				t += rows[i].v[r * nev + (size_t)est[k]];
			scale[k * nrun + r] = t > 0 && cyc > 0 ? cyc / t : 0;
			any |= t > 0 && cyc > 0;
		}
		if (!any)	/* no STATS (a database, an import) */
			continue;
		if (asprintf(&c->own[nown], "est:%s", pmr_prof_event(p,
		    (size_t)est[k])) < 0) {
			c->own[nown] = NULL;
			free(scale);
			return PMR_ENOMEM;
		}
		c->name[c->n] = c->own[nown++];
		c->cycles[c->n++] = 1;
		est[k] = -1 - est[k];	/* made */
	}
	if ((c->val = calloc(n * c->n + 1, sizeof(*c->val))) == NULL) {
		free(scale);
		return PMR_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		double *x = c->val + i * c->n;

		for (r = 0; r < nrun; r++) {
			const double *y = rows[i].v + r * nev;
			size_t j = m;

			for (k = 0; k < m; k++)
				x[k] += y[v->ev[k]];
			for (k = 0; k < nest; k++)
				if (est[k] < 0)
					x[j++] += y[-1 - est[k]] *
					    scale[k * nrun + r];
		}
	}
	free(scale);
	return 0;
}

int
pmr_prof_export_callgrind(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v)
{
	struct pmr_prof_row *rows;
	struct cols c;
	const char *ob = NULL;
	char nm[64], fn[300] = "";
	double *tot;
	size_t n, i, k, r;
	int rc;

	if ((rc = pmr_prof_group(p, PMR_PROF_BY_INSN, 1, 0, UINT64_MAX,
	    &rows, &n, NULL)) != 0 || (rc = cols_make(p, v, rows, n, &c)) != 0)
		return rc;
	if ((tot = calloc(c.n + 1, sizeof(*tot))) == NULL) {
		cols_free(&c);
		return PMR_ENOMEM;
	}
	fprintf(f, "# callgrind format\nversion: 1\ncreator: pmprof\n");
	fprintf(f, "cmd:");
	for (r = 0; r < pmr_prof_nrun(p); r++)
		fprintf(f, " %s", pmr_prof_runinfo(p, r)->name);
	fprintf(f, "\npositions: instr line\nevents:");
	for (k = 0; k < c.n; k++) {
		cg_name(nm, sizeof(nm), c.name[k]);
		fprintf(f, " %s", nm);
	}
	fprintf(f, "\n");
	for (i = 0; i < n; i++) {
		const struct pmr_prof_row *w = &rows[i];
		const double *x = c.val + i * c.n;
		const char *o = row_image(p, w), *u = row_proc(p, w);
		char unb[300];
		int any = 0;

		if (w->img >= 0 && w->proc == NULL) {
			/* callgrind_annotate merges functions by name:
			 * each image's unnamed pcs get a name of their own */
			snprintf(unb, sizeof(unb), "%s [%s]", u, base_name(o));
			u = unb;
		}
		for (k = 0; k < c.n; k++)
			any |= llround(x[k]) != 0;
		if (!any)
			continue;
		if (ob == NULL || strcmp(ob, o) != 0) {
			fprintf(f, "\nob=%s\nfl=???\n", o);
			ob = o;
			fn[0] = '\0';
		}
		if (strcmp(fn, u) != 0) {
			fprintf(f, "fn=%s\n", u);
			snprintf(fn, sizeof(fn), "%s", u);
		}
		fprintf(f, "0x%" PRIx64 " 0", w->lo);
		for (k = 0; k < c.n; k++) {
			long long y = llround(x[k]);

			tot[k] += (double)y;
			fprintf(f, " %lld", y);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\ntotals:");
	for (k = 0; k < c.n; k++)
		fprintf(f, " %.0f", tot[k]);
	fprintf(f, "\n");
	free(tot);
	cols_free(&c);
	return 0;
}

int
pmr_prof_export_folded(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v)
{
	struct pmr_prof_row *rows;
	enum pmr_prof_by by = v->by == PMR_PROF_BY_INSN ? PMR_PROF_BY_INSN :
	    PMR_PROF_BY_PROC;
	size_t n, i;
	int rc;

	if ((rc = pmr_prof_group(p, by, 0, 0, UINT64_MAX, &rows, &n,
	    NULL)) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		const struct pmr_prof_row *w = &rows[i];
		long long x = llround(w->v[v->ev[0]]);

		if (x == 0)
			continue;
		fprintf(f, "%s;%s", base_name(row_image(p, w)), row_proc(p, w));
		if (by == PMR_PROF_BY_INSN)
			fprintf(f, ";0x%" PRIx64, w->lo);
		fprintf(f, " %lld\n", x);
	}
	return 0;
}

int
pmr_prof_export_pprof(FILE *f, struct pmr_prof *p,
    const struct pmr_prof_view *v)
{
	static const char *const lkey[5] = { "lat_fm", "lat_md", "lat_dx",
		"lat_xr", "lat_rr" };
	static const char *const lunit[5] = { "cycles", "cycles", "cycles",
		"cycles", "cycles" };
	struct pmr_images *im = pmr_prof_images(p);
	struct pmr_prof_row *rows;
	struct pmr_pprof pp;
	struct pmr_pprof_mapping *map = NULL;
	struct pmr_pprof_loc *loc = NULL;
	const char **tname = NULL, **tunit = NULL;
	int64_t *val = NULL;
	double *lab = NULL;
	char (*bid)[129] = NULL, *comment = NULL;
	long lat[5], nlat = pmr_prof_event_find(p, "lat:n");
	size_t n, i, k, r, nl = 0, nimg = pmr_images_count(im), clen = 0;
	size_t nrun = pmr_prof_nrun(p) ? pmr_prof_nrun(p) : 1;
	size_t nev = pmr_prof_nevent(p);
	struct cols c;
	int rc, haslat;

	if ((rc = pmr_prof_group(p, PMR_PROF_BY_INSN, 1, 0, UINT64_MAX,
	    &rows, &n, NULL)) != 0 || (rc = cols_make(p, v, rows, n, &c)) != 0)
		return rc;
	for (k = 0; k < 5; k++)
		lat[k] = pmr_prof_event_find(p, latname[k]);
	haslat = nlat >= 0 && lat[4] >= 0;
	rc = PMR_ENOMEM;
	if ((map = calloc(nimg + 1, sizeof(*map))) == NULL ||
	    (bid = calloc(nimg + 1, sizeof(*bid))) == NULL ||
	    (loc = calloc(n + 1, sizeof(*loc))) == NULL ||
	    (val = calloc((n + 1) * c.n, sizeof(*val))) == NULL ||
	    (lab = calloc((n + 1) * 5, sizeof(*lab))) == NULL ||
	    (tname = calloc(c.n + 1, sizeof(*tname))) == NULL ||
	    (tunit = calloc(c.n + 1, sizeof(*tunit))) == NULL)
		goto out;
	for (i = 0; i < nimg; i++) {
		const struct pmr_images_ent *e = pmr_images_get(im, i);

		map[i].start = e->start;
		map[i].limit = e->start + e->size;
		map[i].offset = e->offset;
		map[i].path = e->path;
		for (k = 0; k < e->nbid && k < 64; k++)
			snprintf(bid[i] + 2 * k, 3, "%02x", e->bid[k]);
		map[i].build_id = e->nbid ? bid[i] : NULL;
	}
	for (k = 0; k < c.n; k++) {
		tname[k] = c.name[k];
		tunit[k] = c.cycles[k] ? "cycles" : "count";
	}
	for (i = 0; i < n; i++) {
		const struct pmr_prof_row *w = &rows[i];
		int64_t *x = val + nl * c.n;
		double *l = lab + nl * 5, ls[6] = { 0, 0, 0, 0, 0, 0 };
		int any = 0;

		for (k = 0; k < c.n; k++) {
			x[k] = llround(c.val[i * c.n + k]);
			any |= x[k] != 0;
		}
		if (!any)
			continue;
		for (r = 0; haslat && r < nrun; r++) {
			for (k = 0; k < 5; k++)
				ls[k] += w->v[r * nev + (size_t)lat[k]];
			ls[5] += w->v[r * nev + (size_t)nlat];
		}
		for (k = 0; k < 5; k++)
			l[k] = haslat && ls[5] > 0 ? ls[k] / ls[5] : NAN;
		loc[nl].addr = w->lo;
		loc[nl].mapping = w->img >= 0 ? (int)w->img : -1;
		loc[nl].func = w->img < 0 ? NULL : w->proc;
		loc[nl].func_lo = w->proc != NULL ? w->proc_lo : 0;
		loc[nl].value = x;
		loc[nl].label = haslat ? l : NULL;
		nl++;
	}
	for (i = 0; i < pmr_prof_nrun(p); i++)
		clen += strlen(pmr_prof_runinfo(p, i)->name) + 1;
	if ((comment = calloc(clen + 16, 1)) == NULL)
		goto out;
	strcpy(comment, "pmprof:");
	for (i = 0; i < pmr_prof_nrun(p); i++) {
		strcat(comment, " ");
		strcat(comment, pmr_prof_runinfo(p, i)->name);
	}
	memset(&pp, 0, sizeof(pp));
	pp.ntype = c.n;
	pp.type_name = tname;
	pp.type_unit = tunit;
	pp.nlabel = haslat ? 5 : 0;
	pp.label_key = lkey;
	pp.label_unit = lunit;
	pp.nmap = nimg;
	pp.map = map;
	pp.nloc = nl;
	pp.loc = loc;
	pp.comment = comment;
	pp.default_type = 0;
	rc = pmr_pprof_write(f, &pp);
out:
	free(map);
	free(bid);
	free(loc);
	free(val);
	free(lab);
	free(tname);
	free(tunit);
	free(comment);
	cols_free(&c);
	return rc;
}
