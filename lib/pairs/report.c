/*
 * report.c: pairs' reports: the header (input, sampler, windowed IPC),
 * the metric table per row in aligned text, TSV or JSON, latency
 * histograms, the accuracy summary against TRUTH, the address, edge and
 * path profiles and the path-reconstruction results.  Numbers and layout
 * are what pairs(1) documents; nothing here exits or prints on stderr.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs/report.h"
#include "util/table.h"

static void print_num(FILE *f, const char *fmt, double v, const char *nan);

static const char *const rb_mode[] = { "intra", "inter" };
static const char *const rb_scheme[] = { "counts", "history", "pairs" };

/* Prints the path reconstruction results (comment lines, or JSON). */
static void
rebuild_report(FILE *f, const struct pmr_pairs_report *o,
    enum pmr_pairs_fmt fmt)
{
	const struct pmr_pairs_rebuild *rb = o->rb;
	const char *lead = fmt == PMR_PAIRS_F_TSV ? "#" : "# ";
	int m, sc;

	if (rb == NULL)
		return;
	if (fmt == PMR_PAIRS_F_JSON) {
		fprintf(f, "{\"rebuild\":{\"trace\":");
		pmr_json_str(f, o->rebuild);
		fprintf(f, ",\"insns\":%" PRIu64 ",\"nodes\":%" PRIu64
		    ",\"edges\":%" PRIu64 ",\"samples\":%" PRIu64
		    ",\"scored\":%" PRIu64 ",\"notrue\":%" PRIu64
		    ",\"badpc\":%" PRIu64 ",\"histbad\":%" PRIu64
		    ",\"paired\":%" PRIu64 ",\"schemes\":[", rb->insns,
		    rb->nodes, rb->edges, rb->samples, rb->scored, rb->notrue,
		    rb->badpc, rb->histbad, rb->paired);
		for (m = 0; m < PMR_PAIRS_RB_NMODE; m++)
			for (sc = 0; sc < PMR_PAIRS_RB_NSCHEME; sc++) {
				const struct pmr_pairs_rb_count *c =
				    &rb->c[m][sc];

				fprintf(f, "%s{\"mode\":\"%s\",\"scheme\":"
				    "\"%s\",\"success\":", m + sc ? "," : "",
				    rb_mode[m], rb_scheme[sc]);
				print_num(f, "%.6g", rb->scored ?
				    (double)c->ok / (double)rb->scored : NAN,
				    "null");
				fprintf(f, ",\"ok\":%" PRIu64 ",\"wrong\":%"
				    PRIu64 ",\"ambiguous\":%" PRIu64
				    ",\"none\":%" PRIu64 ",\"bound\":%" PRIu64
				    "}", c->ok, c->wrong, c->ambig, c->none,
				    c->bound);
			}
		fprintf(f, "]}}\n");
		return;
	}
	fprintf(f, "%spaths rebuilt from '%s': %" PRIu64 " instructions, "
	    "CFG of %" PRIu64 " pcs and %" PRIu64 " edges\n", lead, o->rebuild,
	    rb->insns, rb->nodes, rb->edges);
	fprintf(f, "%s%" PRIu64 " retired samples, %" PRIu64 " scored (%"
	    PRIu64 " without a true path, %" PRIu64 " at another pc in the "
	    "trace), %" PRIu64 " with a history unlike their path, %" PRIu64
	    " with a pair constraint\n", lead, rb->samples, rb->scored,
	    rb->notrue, rb->badpc, rb->histbad, rb->paired);
	fprintf(f, "%s%-6s %-8s %8s %10s %10s %10s %10s %10s\n", lead, "walk",
	    "scheme", "success", "correct", "wrong", "ambiguous", "no-path",
	    "bound");
	for (m = 0; m < PMR_PAIRS_RB_NMODE; m++)
		for (sc = 0; sc < PMR_PAIRS_RB_NSCHEME; sc++) {
			const struct pmr_pairs_rb_count *c = &rb->c[m][sc];

			fprintf(f, "%s%-6s %-8s ", lead, rb_mode[m],
			    rb_scheme[sc]);
			print_num(f, "%7.2f%%", rb->scored ? 100.0 *
			(double)c->ok / (double)rb->scored : NAN, "       -");
			fprintf(f, " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			    " %10" PRIu64 " %10" PRIu64 "\n", c->ok, c->wrong,
			    c->ambig, c->none, c->bound);
		}
}

static void
print_num(FILE *f, const char *fmt, double v, const char *nan)
{
	if (isnan(v))
		fputs(nan, f);
	else
		fprintf(f, fmt, v);
}


static const char *
row_key(const struct pmr_pairs_report *o, const struct pmr_pairs_row *r,
    char *buf, size_t cap)
{
	if (r->name != NULL)
		return r->name;
	snprintf(buf, cap, o->by == PMR_PAIRS_BY_CONTEXT ? "%" PRIu64 :
	    "0x%" PRIx64, r->key);
	return buf;
}

/*
 * Windowed IPC (ProfileMe §6): the retire-weighted mean m = sum c^2 / sum c
 * of the retires c per window, the weighted sd sqrt(sum c^3 / sum c -
 * m^2), the plain mean and the max/min ratio, min over windows that
 * retired something.  Returns 0 when the input has none.
 */
static int
winstats(const struct pmr_pairs_info *in, double *wmean, double *wsd,
    double *mean, double *ratio)
{
	double sc = (double)in->win_sum, v;

	if (in->win_len == 0 || in->win_len == UINT64_MAX || in->win_n == 0 ||
	    in->win_sum == 0)
		return 0;
	*wmean = (double)in->win_sumsq / sc;
	v = (double)in->win_sumcube / sc - *wmean * *wmean;
	*wsd = sqrt(v > 0 ? v : 0);
	*mean = sc / (double)in->win_n;
	*ratio = in->win_min ? (double)in->win_max / (double)in->win_min :
	    NAN;
	return 1;
}

static void
header(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs_info *in, int argc, char *argv[])
{
	double wm, wsd, mean, ratio;

	const char *lead = o->fmt == PMR_PAIRS_F_TSV ? "#" : "# ";
	int i;

	fprintf(f, "%sinput:", lead);
	if (argc == 0)
		fprintf(f, " -");
	for (i = 0; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fprintf(f, "\n%smachine: %s (config %s)\n", lead,
	    in->machine[0] ? in->machine : "?",
	    in->digest[0] ? in->digest : "?");
	fprintf(f, "%ssampler: ProfileMe %s%s%s\n", lead,
	    in->mode == PMR_PAIRS_PAIRED ? "paired" : "single",
	    in->sampler[0] ? ": " : "", in->sampler);
	fprintf(f, "%sS %" PRIu64 ", W %u, C %u, samples %" PRIu64
	    ", pairs %" PRIu64 ", fetched %" PRIu64 ", effective S %.1f, "
	    "scale per sample %.1f\n", lead, in->S, in->W, in->C,
	    in->samples, in->pairs, in->fetched, in->S_eff, in->s);
	if (in->mode == PMR_PAIRS_PAIRED)
		fprintf(f, "%slocal IPC window: +-%u cycles%s\n", lead,
		    in->delta, in->tdelta == 0 ? "" : in->tdelta == in->delta ?
		    " (as TRUTH local)" :
		    " (TRUTH local has another: not " "scored)");
	if (in->offpath + in->empty > 0)
		fprintf(f, "%sfront-end waste: %.4f of the selected slots "
		    "(%" PRIu64 " off-path, %" PRIu64 " empty)\n", lead,
		    (double)(in->offpath + in->empty) /
		(double)(in->mode == PMR_PAIRS_PAIRED ? 2 * in->pairs :
		    in->samples), in->offpath, in->empty);
	if (in->other > 0)
		fprintf(f, "%signored: %" PRIu64 " samples of a baseline "
		    "sampler\n", lead, in->other);
	if (winstats(in, &wm, &wsd, &mean, &ratio))
		fprintf(f, "%swindowed IPC: %" PRIu64 " windows of %" PRIu64
		    " cycles (%" PRIu64 " retired nothing), retire-weighted "
		    "mean %.2f per window (IPC %.3f; plain mean %.2f), max/min "
		    "%" PRIu64 "/%" PRIu64 " = %.1f, weighted sd %.1f%% of the "
		    "mean\n", lead, in->win_n, in->win_len, in->win_zero, wm,
		    wm / (double)in->win_len, mean, in->win_max, in->win_min,
		    ratio, 100 * wsd / wm);
	if (o->if_arg != NULL)
		fprintf(f, "%sonly samples with events %s (TRUTH unused)\n",
		    lead, o->if_arg);
	if (o->truth)
		fprintf(f, "%struth: %" PRIu64 " TRUTH records\n", lead,
		    in->ntruth);
}

static int
text_report(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs *p, const struct pmr_pairs_row *rows, size_t n)
{
	struct pmr_grid g;
	struct pmr_pairs_val v;
	char key[32];
	size_t i;
	int k;

	/* all cells row-major, then printed with the widest of each column */
	pmr_grid_init(&g, 2 + (size_t)o->nm * (o->truth ? 4 : 2));
	pmr_grid_put(&g, o->by == PMR_PAIRS_BY_ALL ? "rows" :
	    o->by == PMR_PAIRS_BY_PC ? "pc" :
	    o->by == PMR_PAIRS_BY_CONTEXT ? "context" :
	    o->by == PMR_PAIRS_BY_PROC ? "procedure" : "image");
	pmr_grid_put(&g, "samples");
	for (k = 0; k < o->nm; k++) {
		pmr_grid_put(&g, pmr_pairs_metric_name(o->mlist[k]));
		pmr_grid_put(&g, "+-");
		if (o->truth) {
			pmr_grid_put(&g, "exact");
			pmr_grid_put(&g, "err%");
		}
	}
	for (i = 0; i < n; i++) {
		pmr_grid_put(&g, row_key(o, &rows[i], key, sizeof(key)));
		pmr_pairs_eval(p, &rows[i], 0, &v);
		pmr_grid_putf(&g, "%" PRIu64, v.k);
		for (k = 0; k < o->nm; k++) {
			int m = o->mlist[k], ok;
			const char *fm = pmr_pairs_metric_fmt(m);

			ok = pmr_pairs_eval(p, &rows[i], m, &v);
#define NUM(fmt_, x) do {						\
		if (!ok || isnan(x))					\
			pmr_grid_put(&g, "-");				\
		else							\
			pmr_grid_putf(&g, fmt_, x);			\
	} while (0)
			NUM(fm, v.est);
			NUM(fm, (v.hi - v.lo) / 2);
			if (o->truth) {
				NUM(fm, v.exact);
				NUM("%+.1f", 100 * v.relerr);
			}
#undef NUM
		}
	}
	return pmr_grid_print(&g, f) == 0 ? 0 : PMR_ENOMEM;
}

static void
tsv_report(FILE *f, const struct pmr_pairs_report *o, const struct pmr_pairs *p,
    const struct pmr_pairs_row *rows, size_t n)
{
	static const struct pmr_tval names[] = {
		PMR_TVS("key", "", 0), PMR_TVS("metric", "", 0),
		PMR_TVU("k", 0, 0), PMR_TVN("est", 0, ""), PMR_TVN("lo", 0, ""),
		PMR_TVN("hi", 0, ""), PMR_TVN("exact", 0, ""),
		PMR_TVN("relerr", 0, ""),
	};
	struct pmr_pairs_val v;
	char key[32];
	size_t i;
	int k, seen = 0;

	if (n == 0 || o->nm == 0)	/* the header of an empty table */
		pmr_table_header(f, NULL, names, o->truth ? 8 : 6);
	for (i = 0; i < n; i++)
		for (k = 0; k < o->nm; k++) {
			if (!pmr_pairs_eval(p, &rows[i], o->mlist[k], &v))
				v.est = v.lo = v.hi = NAN;
			{
				struct pmr_tval t[] = {
					PMR_TVS("key", row_key(o, &rows[i],
					    key, sizeof(key)), 0),
					PMR_TVS("metric",
					    pmr_pairs_metric_name(o->mlist[k]),
					    0),
					PMR_TVU("k", v.k, 0),
					PMR_TVN("est", v.est, "%.10g"),
					PMR_TVN("lo", v.lo, "%.10g"),
					PMR_TVN("hi", v.hi, "%.10g"),
					PMR_TVN("exact", v.exact, "%.10g"),
					PMR_TVN("relerr", v.relerr, "%.6g"),
				};

				pmr_table_line(f, PMR_TABLE_TSV, NULL, NULL,
				    &seen, t, o->truth ? 8 : 6);
			}
		}
}

static int
json_report(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs *p, const struct pmr_pairs_row *rows, size_t n)
{
	const struct pmr_pairs_info *in = pmr_pairs_info(p);
	struct pmr_pairs_val v;
	double wm, wsd, mean, ratio;
	struct pmr_tval *t;
	char key[32];
	size_t i;
	int k, per, seen = 1;

	fprintf(f, "{\"header\":{\"machine\":");
	pmr_json_str(f, in->machine);
	fprintf(f, ",\"config\":");
	pmr_json_str(f, in->digest);
	fprintf(f, ",\"sampler\":");
	pmr_json_str(f, in->sampler);
	fprintf(f, ",\"mode\":\"%s\",\"S\":%" PRIu64 ",\"W\":%u,\"C\":%u,"
	    "\"samples\":%" PRIu64 ",\"pairs\":%" PRIu64 ",\"fetched\":%"
	    PRIu64 ",\"S_eff\":%.10g,\"scale\":%.10g",
	in->mode == PMR_PAIRS_PAIRED ? "paired" : "single", in->S, in->W, in->C,
	    in->samples, in->pairs, in->fetched, in->S_eff, in->s);
	if (in->mode == PMR_PAIRS_PAIRED)
		fprintf(f, ",\"delta\":%u", in->delta);
	if (winstats(in, &wm, &wsd, &mean, &ratio)) {
		fprintf(f, ",\"windows\":{\"len\":%" PRIu64 ",\"n\":%"
		    PRIu64 ",\"zero\":%" PRIu64 ",\"wmean\":%.10g,"
		    "\"ipc\":%.10g,\"mean\":%.10g,\"max\":%" PRIu64
		    ",\"min\":%" PRIu64 ",\"ratio\":", in->win_len, in->win_n,
		    in->win_zero, wm, wm / (double)in->win_len, mean,
		    in->win_max, in->win_min);
		print_num(f, "%.10g", ratio, "null");
		fprintf(f, ",\"wsd_pct\":%.10g}", 100 * wsd / wm);
	}
	fprintf(f, "}}\n");
	rebuild_report(f, o, PMR_PAIRS_F_JSON);
	/* a row: the key, then an object per metric */
	per = o->truth ? 7 : 5;
	if ((t = calloc(1 + (size_t)o->nm * per, sizeof(*t))) == NULL)
		return PMR_ENOMEM;
	for (i = 0; i < n; i++) {
		struct pmr_tval *q = t;

		*q++ = (struct pmr_tval)PMR_TVS("key", row_key(o, &rows[i], key,
		    sizeof(key)), 0);
		for (k = 0; k < o->nm; k++) {
			int ok = pmr_pairs_eval(p, &rows[i], o->mlist[k], &v);

			*q++ = (struct pmr_tval)PMR_TVG(pmr_pairs_metric_name(
			    o->mlist[k]), per - 1);
			*q++ = (struct pmr_tval)PMR_TVU("k", v.k, 0);
			*q++ = (struct pmr_tval)PMR_TVN("est", ok ? v.est : NAN,
			    "%.10g");
			*q++ = (struct pmr_tval)PMR_TVN("lo", ok ? v.lo : NAN,
			    "%.10g");
			*q++ = (struct pmr_tval)PMR_TVN("hi", ok ? v.hi : NAN,
			    "%.10g");
			if (o->truth) {
				*q++ = (struct pmr_tval)PMR_TVN("exact",
				    v.exact, "%.10g");
				*q++ = (struct pmr_tval)PMR_TVN("relerr",
				    v.relerr, "%.6g");
			}
		}
		pmr_table_line(f, PMR_TABLE_JSON, NULL, NULL, &seen, t,
		    (size_t)(q - t));
	}
	free(t);
	return 0;
}

/* Prints the distribution of latency o->hist of each row. */
static void
hist_report(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs *p, const struct pmr_pairs_row *rows, size_t n)
{
	static const char *const lat[] = { "fm", "md", "dx", "xr", "rr", "ld",
		"total" };
	uint64_t c[PMR_PAIRS_NB], tot, lo, hi;
	double s = pmr_pairs_info(p)->s;
	static const struct pmr_tval names[] = {
		PMR_TVS("key", "", 0), PMR_TVS("lat", "", 0),
		PMR_TVU("lo", 0, 0), PMR_TVU("hi", 0, 0),
		PMR_TVU("samples", 0, 0), PMR_TVN("fraction", 0, ""),
		PMR_TVN("est", 0, ""),
	};
	char key[32];
	const char *name;
	size_t i;
	unsigned b;
	int w = 4, seen = 1;	/* the TSV header is printed first */

	for (i = 0; i < n; i++)
		if ((int)strlen(row_key(o, &rows[i], key, sizeof(key))) > w)
			w = (int)strlen(row_key(o, &rows[i], key,
			    sizeof(key)));
	if (o->fmt == PMR_PAIRS_F_TSV)
		pmr_table_header(f, NULL, names, 7);
	else if (o->fmt == PMR_PAIRS_F_TEXT)
		fprintf(f, "%-*s  %-5s  %10s  %10s  %8s  %8s  %12s\n", w,
		o->by == PMR_PAIRS_BY_ALL ? "rows" : "key", "lat", "lo", "hi",
		    "samples", "fraction", "est");
	for (i = 0; i < n; i++) {
		if ((tot = pmr_pairs_hist(&rows[i], o->hist, c)) == 0)
			continue;
		/* a named row (procedure, image) has no key in key[] */
		name = row_key(o, &rows[i], key, sizeof(key));
		for (b = 0; b < PMR_PAIRS_NB; b++) {
			if (c[b] == 0)
				continue;
			lo = pmr_pairs_bucket_lo(b);
			hi = b + 1 < PMR_PAIRS_NB ? pmr_pairs_bucket_lo(b + 1) -
			    1 : UINT32_MAX - 1;
			if (o->fmt != PMR_PAIRS_F_TEXT) {
				struct pmr_tval t[] = {
					PMR_TVS("key", name, 0),
					PMR_TVS("lat", lat[o->hist], 0),
					PMR_TVU("lo", lo, 0),
					PMR_TVU("hi", hi, 0),
					PMR_TVU("samples", c[b], 0),
					PMR_TVN("fraction", (double)c[b] /
					    (double)tot, "%.6g"),
					PMR_TVN("est", s * (double)c[b],
					    "%.10g"),
				};

				pmr_table_line(f, o->fmt == PMR_PAIRS_F_JSON ?
				    PMR_TABLE_JSON : PMR_TABLE_TSV, NULL,
				    NULL, &seen, t, 7);
			} else {
				fprintf(f, "%-*s  %-5s  %10" PRIu64 "  %10" PRIu64
				    "  %8" PRIu64 "  %8.4f  %12.0f\n", w, name,
				    lat[o->hist], lo, hi, c[b],
				    (double)c[b] / (double)tot, s * (double)c[b]);
			}
		}
	}
}


/* Prints the accuracy of each count metric against TRUTH. */
static int
truth_summary(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs *p, const struct pmr_pairs_row *rows, size_t n)
{
	struct pmr_pairs_score sc;
	struct pmr_pairs_val v;
	int k, m;

	for (k = 0; k < o->nm; k++) {
		m = o->mlist[k];
		if (n == 0 || pmr_pairs_eval(p, &rows[0], m, &v) == 0 ||
		    isnan(v.exact))
			continue;
		if (pmr_pairs_score(p, rows, n, m, o->min_k, &sc) != 0)
			return PMR_ENOMEM;
		if (sc.n == 0)
			continue;
		if (o->fmt == PMR_PAIRS_F_JSON) {
			fprintf(f, "{\"truth\":{\"metric\":\"%s\",\"rows\":%"
			    PRIu64 ",\"min_samples\":%" PRIu64,
			    pmr_pairs_metric_name(m), sc.n, o->min_k);
			if (v.count)
				fprintf(f, ",\"in1\":%.6g,\"in2\":%.6g",
				    (double)sc.in1 / (double)sc.n,
				    (double)sc.in2 / (double)sc.n);
			fprintf(f, ",\"covered\":");
			print_num(f, "%.6g", sc.n > sc.noci ?
			    (double)sc.covered / (double)(sc.n - sc.noci) :
			    NAN, "null");
			fprintf(f, ",\"no_interval\":%" PRIu64 ",\"median_abs_"
			    "err\":%.6g}}\n", sc.noci, sc.med_abs);
			continue;
		}
		fprintf(f, "%struth %s: %" PRIu64 " rows with %s >= %" PRIu64,
		o->fmt == PMR_PAIRS_F_TSV ? "#" : "# ",
		    pmr_pairs_metric_name(m), sc.n, v.count ? "expected k" :
		    "k", o->min_k);
		if (v.count)
			fprintf(f, ", %.1f%% inside 1 +- 1/sqrt(k), %.1f%% "
			    "inside 1 +- 2/sqrt(k)",
			    100.0 * (double)sc.in1 / (double)sc.n,
			    100.0 * (double)sc.in2 / (double)sc.n);
		if (sc.n > sc.noci)
			fprintf(f, ", interval covers exact %.1f%%", 100.0 *
			    (double)sc.covered / (double)(sc.n - sc.noci));
		if (sc.noci > 0)
			fprintf(f, ", %" PRIu64 " without an interval",
			    sc.noci);
		fprintf(f, ", median |err| %.2f%%\n", 100 * sc.med_abs);
	}
	return 0;
}

/* --- address, edge and path profiles -------------------------------- */

static const char *const prof_key[] = { "page", "set", "pc", "pc", "pc",
	"pc" };
static const char *const prof_key2[] = { NULL, NULL, "target", "history",
	"history", "history" };

/* Formats the second key of row r (target or history pattern). */
static const char *
prow_key2(const struct pmr_pairs_report *o, const struct pmr_pairs_prow *r,
    char *buf, size_t cap)
{
	unsigned i;

	if (o->prof == PMR_PAIRS_PROF_EDGE) {
		if (r->fallthru)
			snprintf(buf, cap, "fallthru");
		else
			snprintf(buf, cap, "0x%" PRIx64, r->key2);
	} else {
		/* oldest bit first: bit 0, the newest, is on the right */
		for (i = 0; i < o->bits && i + 1 < cap; i++)
			buf[i] = (r->key2 >> (o->bits - 1 - i) & 1) ? '1' : '0';
		buf[i] = '\0';
	}
	return buf;
}

static const char *
prow_key(const struct pmr_pairs_report *o, const struct pmr_pairs_prow *r,
    char *buf, size_t cap)
{
	if (o->prof == PMR_PAIRS_PROF_SET)
		snprintf(buf, cap, "%" PRIu64, r->key);
	else
		snprintf(buf, cap, "0x%" PRIx64, r->key);
	return buf;
}

/* Page and set rows: most samples first; edges and paths: hottest pc. */
static int
cmp_prows(const void *x, const void *y)
{
	const struct pmr_pairs_prow *a = x, *b = y;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	if (a->k != b->k && a->key == b->key)
		return a->k > b->k ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->fallthru != b->fallthru)
		return a->fallthru ? 1 : -1;
	return a->key2 < b->key2 ? -1 : a->key2 > b->key2;
}

static int
cmp_prows_k(const void *x, const void *y)
{
	const struct pmr_pairs_prow *a = x, *b = y;

	if (a->k != b->k)
		return a->k > b->k ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

/*
 * The truth summary of a profile: over the rows with an exact count, how
 * often the interval covers it and how many fall inside 1 +- 1/sqrt(l)
 * and 1 +- 2/sqrt(l), l = exact / scale the expected samples.  The rows
 * are those with samples, so the fractions lean to rows that came out
 * high; the per-pc summary of --truth avoids that, a profile cannot list
 * the rows it never saw.
 */
static void
prof_summary(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs_prow *rows, size_t n)
{
	uint64_t m = 0, in1 = 0, in2 = 0, cov = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct pmr_pairs_prow *r = &rows[i];
		double lam, d;

		if (isnan(r->exact) || r->exact <= 0 || r->k == 0)
			continue;
		m++;
		lam = r->exact / (r->est / (double)r->k);
		d = fabs(r->est / r->exact - 1);
		in1 += d <= 1 / sqrt(lam);
		in2 += d <= 2 / sqrt(lam);
		cov += r->lo <= r->exact && r->exact <= r->hi;
	}
	if (m == 0)
		return;
	fprintf(f, "%struth: %" PRIu64 " sampled rows, %.1f%% inside 1 +- "
	    "1/sqrt(l), %.1f%% inside 1 +- 2/sqrt(l), interval covers exact "
	    "%.1f%%\n", o->fmt == PMR_PAIRS_F_TSV ? "#" : "# ", m,
	    100.0 * (double)in1 / (double)m, 100.0 * (double)in2 / (double)m,
	    100.0 * (double)cov / (double)m);
}


static void
prof_report(FILE *f, const struct pmr_pairs_report *o,
    struct pmr_pairs_prow *rows, size_t n)
{
	const char *k2 = prof_key2[o->prof];
	char key[32], key2[80], key3[32] = "";
	size_t i;
	int w = 6, w2 = 8, pp = o->prof == PMR_PAIRS_PROF_PPATH, seen = 1;
	int ex = o->truth && ((o->rebuild != NULL &&
	(o->prof == PMR_PAIRS_PROF_EDGE || o->prof == PMR_PAIRS_PROF_RPATH)) ||
	    (o->prof <= PMR_PAIRS_PROF_SET && n > 0 && !isnan(rows[0].exact)));

	size_t nall = n;

	qsort(rows, n, sizeof(*rows), o->prof == PMR_PAIRS_PROF_PAGE ||
	    o->prof == PMR_PAIRS_PROF_SET ? cmp_prows_k : cmp_prows);
	if (o->top && o->top < n)
		n = o->top;
	for (i = 0; i < n; i++) {
		if ((int)strlen(prow_key(o, &rows[i], key, sizeof(key))) > w)
			w = (int)strlen(key);
		if (k2 != NULL && (int)strlen(prow_key2(o, &rows[i], key2,
		    sizeof(key2))) > w2)
			w2 = (int)strlen(key2);
	}
	if (o->fmt == PMR_PAIRS_F_TSV && n == 0)
		fprintf(f, "#%s%s%s%s\tk\tn\test\tlo\thi\tfrac\tflo\tfhi%s\n",
		    prof_key[o->prof], k2 ? "\t" : "", k2 ? k2 : "", pp ?
		    "\tpartner" : "", ex ? "\texact\trelerr" : "");
	else if (o->fmt == PMR_PAIRS_F_TSV)
		seen = 0;	/* the emitter prints it before the first row */
	else if (o->fmt == PMR_PAIRS_F_TEXT) {
		fprintf(f, "%-*s", w, prof_key[o->prof]);
		if (k2 != NULL)
			fprintf(f, "  %*s", w2, k2);
		if (pp)
			fprintf(f, "  %10s", "partner");
		fprintf(f, "  %8s  %12s  %10s  %7s  %7s", "samples",
		    o->prof <= PMR_PAIRS_PROF_SET ? "misses" : o->prof ==
		    PMR_PAIRS_PROF_EDGE ? "edge" : pp ? "pairs" : o->prof ==
		    PMR_PAIRS_PROF_RPATH ? "retires" : "execs", "+-",
		    "frac", "+-");
		if (ex)
			fprintf(f, "  %12s  %7s", "exact", "err%");
		fputc('\n', f);
	}
	for (i = 0; i < n; i++) {
		const struct pmr_pairs_prow *r = &rows[i];

		prow_key(o, r, key, sizeof(key));
		if (k2 != NULL)
			prow_key2(o, r, key2, sizeof(key2));
		if (pp)
			snprintf(key3, sizeof(key3), "0x%" PRIx64, r->key3);
		if (o->fmt != PMR_PAIRS_F_TEXT) {
			struct pmr_tval t[14], *q = t;

			*q++ = (struct pmr_tval)PMR_TVS(prof_key[o->prof], key,
			    0);
			if (k2 != NULL)
				*q++ = (struct pmr_tval)PMR_TVS(k2, key2, 0);
			if (pp)
				*q++ = (struct pmr_tval)PMR_TVS("partner", key3,
				    0);
			*q++ = (struct pmr_tval)PMR_TVU("k", r->k, 0);
			*q++ = (struct pmr_tval)PMR_TVU("n", r->n, 0);
			*q++ = (struct pmr_tval)PMR_TVF("est", r->est, "%.10g");
			*q++ = (struct pmr_tval)PMR_TVF("lo", r->lo, "%.10g");
			*q++ = (struct pmr_tval)PMR_TVF("hi", r->hi, "%.10g");
			*q++ = (struct pmr_tval)PMR_TVF("frac", r->frac,
			    "%.10g");
			*q++ = (struct pmr_tval)PMR_TVF("flo", r->flo, "%.10g");
			*q++ = (struct pmr_tval)PMR_TVF("fhi", r->fhi, "%.10g");
			if (ex) {
				*q++ = (struct pmr_tval)PMR_TVF("exact",
				    r->exact, "%.10g");
				*q++ = (struct pmr_tval)PMR_TVN("relerr",
				    r->exact > 0 ? r->est / r->exact - 1 :
				    NAN, "%.6g");
			}
			pmr_table_line(f, o->fmt == PMR_PAIRS_F_JSON ?
			    PMR_TABLE_JSON : PMR_TABLE_TSV, NULL, NULL, &seen,
			    t, (size_t)(q - t));
		} else {
			fprintf(f, "%-*s", w, key);
			if (k2 != NULL)
				fprintf(f, "  %*s", w2, key2);
			if (pp)
				fprintf(f, "  %10s", key3);
			fprintf(f, "  %8" PRIu64 "  %12.0f  %10.0f  %7.4f  "
			    "%7.4f", r->k, r->est, (r->hi - r->lo) / 2,
			    r->frac, (r->fhi - r->flo) / 2);
			if (ex) {
				fprintf(f, "  %12.0f  ", r->exact);
				print_num(f, "%+7.1f", r->exact > 0 ? 100 *
				    (r->est / r->exact - 1) : NAN, "      -");
			}
			fputc('\n', f);
		}
	}
	if (ex && o->fmt != PMR_PAIRS_F_JSON)
		prof_summary(f, o, rows, nall);
}

/* The largest n of the top rows -n keeps. */
static size_t
top_n(const struct pmr_pairs_report *o, size_t n)
{
	return o->top && o->top < n ? (size_t)o->top : n;
}

int
pmr_pairs_report_write(FILE *f, const struct pmr_pairs_report *o,
    const struct pmr_pairs *p, const struct pmr_pairs_row *rows, size_t n,
    struct pmr_pairs_prow *prows, size_t npr, int argc, char **argv)
{
	int rc = 0;

	if (o->prof >= 0) {
		if (o->fmt != PMR_PAIRS_F_JSON)
			header(f, o, pmr_pairs_info(p), argc, argv);
		rebuild_report(f, o, o->fmt);
		prof_report(f, o, prows, npr);
	} else if (o->hist >= 0) {
		if (o->fmt != PMR_PAIRS_F_JSON)
			header(f, o, pmr_pairs_info(p), argc, argv);
		rebuild_report(f, o, o->fmt);
		hist_report(f, o, p, rows, top_n(o, n));
	} else if (o->fmt == PMR_PAIRS_F_JSON)
		rc = json_report(f, o, p, rows, top_n(o, n));
	else {
		header(f, o, pmr_pairs_info(p), argc, argv);
		rebuild_report(f, o, o->fmt);
		if (o->fmt == PMR_PAIRS_F_TSV)
			tsv_report(f, o, p, rows, top_n(o, n));
		else
			rc = text_report(f, o, p, rows, top_n(o, n));
	}
	if (rc == 0 && o->truth && o->hist < 0 && o->prof < 0)
		rc = truth_summary(f, o, p, rows, n);
	return rc;
}

/*
 * The effective sampling interval (fetched instructions per sample or
 * pair) more than 10% away from the S of META profileme, and further than
 * the noise of n samples (3 / sqrt(n)), says that selections were lost:
 * with the faithful re-arm of pmsim, nothing is selected while a sample is
 * in flight, and per-pc counts are then biased.
 */
const char *
pmr_pairs_rearm_note(const struct pmr_pairs_info *in, int nominal,
    char *buf, size_t len)
{
	uint64_t n;
	double r;

	if (nominal || in->S == 0 || in->nstats == 0 || in->fetched == 0)
		return NULL;
	r = in->S_eff / (double)in->S;
	n = in->mode == PMR_PAIRS_PAIRED ? in->pairs : in->samples;
	if (fabs(r - 1) <= 0.1 || fabs(r - 1) <= 3 / sqrt((double)n))
		return NULL;
	snprintf(buf, len, "effective S %.1f is %.2f times the configured "
	    "S=%" PRIu64 "%s: per-pc counts are biased", in->S_eff, r, in->S,
	    strstr(in->sampler, "rearm=interrupt") != NULL ?
	    " (rearm=interrupt selects nothing while a sample is in flight; "
	    "rearm=select does)" : "");
	return buf;
}
