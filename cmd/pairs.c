/*
 * pairs: ProfileMe metrics from SAMPLE and PAIR records, per pc, image or
 * in total, with confidence intervals and, given TRUTH records, the exact
 * values and the errors.  See pairs(1).
 *
 * The estimators are in lib/pairs/pairs.c; this file parses options, feeds the
 * records of the inputs to the library and prints the report.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pairs/pairs.h"
#include "stream/pmr.h"
#include "util/cli.h"

enum fmt { F_TEXT, F_TSV, F_JSON, F_PMR };

enum {
	O_ABORTS = PMR_OPT_PRIVATE,
	O_BOOT,
	O_CACHE,
	O_CI,
	O_CONFIDENCE,
	O_DELTA,
	O_EDGES,
	O_HIST,
	O_IF,
	O_MIN_SAMPLES,
	O_NOMINAL,
	O_OCCUPANCY,
	O_PAGE_SIZE,
	O_PARTNER,
	O_PATHS,
	O_PROC,
	O_SYSROOT,
	O_REBUILD
};

struct opts {
	struct pmr_common c;
	struct pmr_pairs_opts po;
	enum fmt fmt;
	enum pmr_pairs_by by;
	int *mlist;		/* metric ids to print */
	int nm;
	int m_all;		/* -m all: occ_ and fu_ need --occupancy */
	int sort;		/* metric id, -1 for the default */
	uint64_t top;		/* 0: all */
	int truth;
	uint64_t min_k;
	int list;
	int hist;		/* latency of --hist, -1 for none */
	const char *if_arg;	/* --if, for the header */
	int prof;		/* enum pmr_pairs_prof of the report, -1 none */
	unsigned bits;		/* --paths */
	int partner;		/* --partner */
	struct pmr_pairs_geom geom;	/* --cache, --page-size */
	const char *rebuild;	/* --rebuild trace */
};

static const char synopsis[] =
	    "usage: pairs [-lt] [-b by] [-C width] [-f format] [-m metrics] "
	    "[-n top]\n"
	    "             [-o file] [-p lo-hi] [-s metric] [-W window] "
	    "[--aborts=rule]\n"
	    "             [--boot=B] [--cache=size,ways,line] [--ci=method] "
	    "[--confidence=p]\n"
	    "             [--delta=n] [--edges] [--min-samples=n] [--nominal] "
	    "[--occupancy]\n"
	    "             [--page-size=n] [--partner] [--paths=bits] "
	    "[--proc=name]\n"
	    "             [--rebuild=trace] [--sysroot=dir] [file ...]\n";

static void
help(void)
{
	printf("usage: pairs [options] [file ...]\n"
	    "ProfileMe metrics from the SAMPLE and PAIR records of pmsim "
	    "streams (\"-\" or\nno file is standard input; several files "
	    "or concatenated streams merge),\nwith confidence intervals; "
	    "scored against TRUTH records with -t.\n\n"
	    "      --aborts=RULE    in-progress time of aborted samples: "
	    "count (to the\n"
	    "                       abort, as TRUTH) or zero [count]\n"
	    "      --boot=B         bootstrap replicates of --ci=bootstrap, "
	    "2 to 1000 [200]\n"
	    "  -b, --by=GROUP       rows per pc, proc, image, context or all; "
	    "page or set:\n"
	    "                       D-cache misses per data page or cache "
	    "set [pc]\n"
	    "      --cache=S,W,L    cache of --by=set: S bytes, W ways, L-byte "
	    "lines\n"
	    "                       [65536,2,64]\n"
	    "  -C, --width=N        issue width C [META issue-width, "
	    "else 4]\n"
	    "      --ci=METHOD      intervals of the pair metrics: score or "
	    "bootstrap\n"
	    "                       (Poisson bootstrap over pairs, --seed) "
	    "[score]\n"
	    "      --confidence=P   level of the intervals, 0 < P < 1 "
	    "[0.95]\n"
	    "      --delta=N        local IPC window: retires within +-N "
	    "cycles [META truth,\n"
	    "                       else 15]\n"
	    "  -f, --format=FMT     text, tsv, json or pmr (METRIC "
	    "records) [text]\n"
	    "      --edges          print the CFG edges (pc -> target, "
	    "fall-through) of\n"
	    "                       retired control transfers instead of "
	    "the metrics [off]\n"
	    "      --hist=LAT       print the distribution of latency LAT "
	    "(fm md dx xr rr\n"
	    "                       ld total) instead of the metrics [off]\n"
	    "      --if=LIST        use only samples with these event bits "
	    "(!bit: without),\n"
	    "                       e.g. dcache_miss or !taken,retired "
	    "[all]\n"
	    "  -l, --list           list the metrics and exit\n"
	    "  -m, --metrics=LIST   comma-separated metrics, or all "
	    "[execs,retires,\n"
	    "                       aborts,dcache_miss,misp_rate,inprog; "
	    "paired: execs,\n"
	    "                       retires,inprog,useful,wasted,"
	    "wasted_frac]\n"
	    "      --min-samples=N  rows scored by -t need N samples with "
	    "the property [10]\n"
	    "  -n, --top=N          print the first N rows [all]\n"
	    "      --nominal        scale by the nominal S of META, not "
	    "fetched/samples [off]\n"
	    "      --occupancy      accumulate the stage occupancy and unit "
	    "metrics (occ_*,\n"
	    "                       fu_*; on when -m or -s names one) "
	    "[off]\n"
	    "      --page-size=N    page size of --by=page, a power of 2 "
	    "[8192]\n"
	    "      --partner        with --paths, pairs that both retired, "
	    "by the pc of\n"
	    "                       the earlier member too (W S k) [off]\n"
	    "      --paths=N        print counts per pc by its last N "
	    "history bits (1-64)\n"
	    "                       instead of the metrics [off]\n"
	    "  -p, --pc=LO-HI       keep pcs in [LO, HI] (hex with 0x) "
	    "[all]\n"
	    "      --proc=NAME      keep the pcs of procedure NAME (IMAGE "
	    "symbols) [all]\n"
	    "      --rebuild=TRACE  rebuild the paths of the retired samples "
	    "from the CFG of\n"
	    "                       TRACE (3 schemes) and score them; with "
	    "-t, exact counts\n"
	    "                       of --edges and --paths rows [off]\n"
	    "  -s, --sort=METRIC    sort rows by METRIC, largest first "
	    "[execs]\n"
	    "      --sysroot=DIR    look the absolute paths of IMAGE records "
	    "up under DIR [/]\n"
	    "  -t, --truth          print exact values, errors and the "
	    "accuracy summary [off]\n"
	    "  -W, --window=N       pair window W [META profileme]\n\n%s",
	    pmr_common_help);
}

static void
parse_metrics(struct opts *o, const char *arg)
{
	char *s, *tok, *save = NULL;
	int m, i;

	free(o->mlist);
	o->nm = 0;
	if ((o->mlist = calloc((size_t)pmr_pairs_nmetrics() + 1,
	    sizeof(int))) == NULL)
		err(1, NULL);
	o->m_all = strcmp(arg, "all") == 0;
	if (o->m_all) {
		for (i = 0; i < pmr_pairs_nmetrics(); i++)
			o->mlist[o->nm++] = i;
		return;
	}
	if ((s = strdup(arg)) == NULL)
		err(1, NULL);
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((m = pmr_pairs_metric_find(tok)) < 0) {
			warnx("unknown metric '%s' (pairs -l lists them)", tok);
			pmr_cli_usage();
		}
		if (o->nm < pmr_pairs_nmetrics())
			o->mlist[o->nm++] = m;
	}
	free(s);
	if (o->nm == 0) {
		warnx("--metrics: empty list");
		pmr_cli_usage();
	}
}

/* Parses --if=dcache_miss,!taken into the event masks. */
static void
parse_if(struct opts *o, const char *arg)
{
	char *s, *tok, *save = NULL;
	uint32_t bit;
	int neg;

	if ((s = strdup(arg)) == NULL)
		err(1, NULL);
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		neg = tok[0] == '!';
		if ((bit = pmr_pairs_event_bit(tok + neg)) == 0) {
			warnx("--if: unknown event '%s'", tok + neg);
			pmr_cli_usage();
		}
		if (neg)
			o->po.if_clear |= bit;
		else
			o->po.if_set |= bit;
	}
	free(s);
}

static void
parse_range(struct opts *o, const char *arg)
{
	char *end;
	const char *dash = strchr(arg, '-');

	errno = 0;
	o->po.pc_lo = strtoull(arg, &end, 0);
	if (dash == NULL || end != dash || errno != 0)
		goto bad;
	o->po.pc_hi = strtoull(dash + 1, &end, 0);
	if (*end != '\0' || end == dash + 1 || errno != 0 ||
	    o->po.pc_hi < o->po.pc_lo)
		goto bad;
	return;
bad:
	warnx("--pc '%s': give LO-HI, LO <= HI", arg);
	pmr_cli_usage();
}

static void
default_metrics(struct opts *o, int mode)
{
	static const char *single = "execs,retires,aborts,dcache_miss,"
	    "misp_rate,inprog";
	static const char *paired = "execs,retires,inprog,useful,wasted,"
	    "wasted_frac";

	parse_metrics(o, mode == 2 ? paired : single);
}

/* --- output ---------------------------------------------------------- */

static void print_num(FILE *f, const char *fmt, double v, const char *nan);
static const struct pmr_pairs_rebuild *rb;	/* --rebuild results, or NULL */
static const char *rb_trace;

static const char *const rb_mode[] = { "intra", "inter" };
static const char *const rb_scheme[] = { "counts", "history", "pairs" };

/* Prints the path reconstruction results (comment lines, or JSON). */
static void
rebuild_report(FILE *f, enum fmt fmt)
{
	const char *lead = fmt == F_TSV ? "#" : "# ";
	int m, sc;

	if (rb == NULL)
		return;
	if (fmt == F_JSON) {
		fprintf(f, "{\"rebuild\":{\"trace\":");
		pmr_json_str(f, rb_trace);
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
	    "CFG of %" PRIu64 " pcs and %" PRIu64 " edges\n", lead, rb_trace,
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

static int by_context;		/* rows are contexts: keys in decimal */

static const char *
row_key(const struct pmr_pairs_row *r, char *buf, size_t cap)
{
	if (r->name != NULL)
		return r->name;
	snprintf(buf, cap, by_context ? "%" PRIu64 : "0x%" PRIx64, r->key);
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
header(FILE *f, const struct opts *o, const struct pmr_pairs_info *in,
    int argc, char *argv[])
{
	double wm, wsd, mean, ratio;

	const char *lead = o->fmt == F_TSV ? "#" : "# ";
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
	    in->mode == 2 ? "paired" : "single",
	    in->sampler[0] ? ": " : "", in->sampler);
	fprintf(f, "%sS %" PRIu64 ", W %u, C %u, samples %" PRIu64
	    ", pairs %" PRIu64 ", fetched %" PRIu64 ", effective S %.1f, "
	    "scale per sample %.1f\n", lead, in->S, in->W, in->C,
	    in->samples, in->pairs, in->fetched, in->S_eff, in->s);
	if (in->mode == 2)
		fprintf(f, "%slocal IPC window: +-%u cycles%s\n", lead,
		    in->delta, in->tdelta == 0 ? "" : in->tdelta == in->delta ?
		    " (as TRUTH local)" :
		    " (TRUTH local has another: not " "scored)");
	if (in->offpath + in->empty > 0)
		fprintf(f, "%sfront-end waste: %.4f of the selected slots "
		    "(%" PRIu64 " off-path, %" PRIu64 " empty)\n", lead,
		    (double)(in->offpath + in->empty) /
		    (double)(in->mode == 2 ? 2 * in->pairs : in->samples),
		    in->offpath, in->empty);
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

static void
text_report(FILE *f, const struct opts *o, const struct pmr_pairs *p,
    const struct pmr_pairs_row *rows, size_t n)
{
	size_t i, c, *w, ncol = 2 + (size_t)o->nm * (o->truth ? 4 : 2);
	struct pmr_pairs_val v;
	char key[32];
	int k;

	/* all cells row-major, then printed with the widest of each column */
	if ((w = calloc(ncol, sizeof(*w))) == NULL)
		err(1, NULL);
	{
		char **all = NULL;
		size_t na = 0;

#define PUT(s) do {							\
		if ((all = realloc(all, (na + 1) * sizeof(*all))) == NULL) \
			err(1, NULL);					\
		if ((all[na++] = strdup(s)) == NULL)			\
			err(1, NULL);					\
	} while (0)
		PUT(o->by == PMR_PAIRS_BY_ALL ? "rows" :
		    o->by == PMR_PAIRS_BY_PC ? "pc" :
		    o->by == PMR_PAIRS_BY_CONTEXT ? "context" :
		    o->by == PMR_PAIRS_BY_PROC ? "procedure" : "image");
		PUT("samples");
		for (k = 0; k < o->nm; k++) {
			PUT(pmr_pairs_metric_name(o->mlist[k]));
			PUT("+-");
			if (o->truth) {
				PUT("exact");
				PUT("err%");
			}
		}
		for (i = 0; i < n; i++) {
			char buf[64];

			PUT(row_key(&rows[i], key, sizeof(key)));
			pmr_pairs_eval(p, &rows[i], 0, &v);
			snprintf(buf, sizeof(buf), "%" PRIu64, v.k);
			PUT(buf);
			for (k = 0; k < o->nm; k++) {
				int m = o->mlist[k], ok;
				const char *fm = pmr_pairs_metric_fmt(m);

				ok = pmr_pairs_eval(p, &rows[i], m, &v);
#define NUM(fmt_, x) do {						\
		if (!ok || isnan(x))					\
			snprintf(buf, sizeof(buf), "-");		\
		else							\
			snprintf(buf, sizeof(buf), fmt_, x);		\
		PUT(buf);						\
	} while (0)
				NUM(fm, v.est);
				NUM(fm, (v.hi - v.lo) / 2);
				if (o->truth) {
					NUM(fm, v.exact);
					NUM("%+.1f", 100 * v.relerr);
				}
			}
		}
		for (i = 0; i < na; i++) {
			c = i % ncol;
			if (strlen(all[i]) > w[c])
				w[c] = strlen(all[i]);
		}
		for (i = 0; i < na; i++) {
			c = i % ncol;
			if (c == 0)
				fprintf(f, "%-*s", (int)w[c], all[i]);
			else
				fprintf(f, "  %*s", (int)w[c], all[i]);
			if (c == ncol - 1)
				fputc('\n', f);
			free(all[i]);
		}
		free(all);
#undef NUM
#undef PUT
	}
	free(w);
}

static void
tsv_report(FILE *f, const struct opts *o, const struct pmr_pairs *p,
    const struct pmr_pairs_row *rows, size_t n)
{
	struct pmr_pairs_val v;
	char key[32];
	size_t i;
	int k;

	fprintf(f, "#key\tmetric\tk\test\tlo\thi%s\n",
	    o->truth ? "\texact\trelerr" : "");
	for (i = 0; i < n; i++)
		for (k = 0; k < o->nm; k++) {
			if (!pmr_pairs_eval(p, &rows[i], o->mlist[k], &v))
				v.est = v.lo = v.hi = NAN;
			fprintf(f, "%s\t%s\t%" PRIu64 "\t",
			    row_key(&rows[i], key, sizeof(key)),
			    pmr_pairs_metric_name(o->mlist[k]), v.k);
			print_num(f, "%.10g", v.est, "-");
			fputc('\t', f);
			print_num(f, "%.10g", v.lo, "-");
			fputc('\t', f);
			print_num(f, "%.10g", v.hi, "-");
			if (o->truth) {
				fputc('\t', f);
				print_num(f, "%.10g", v.exact, "-");
				fputc('\t', f);
				print_num(f, "%.6g", v.relerr, "-");
			}
			fputc('\n', f);
		}
}

static void
json_report(FILE *f, const struct opts *o, const struct pmr_pairs *p,
    const struct pmr_pairs_row *rows, size_t n)
{
	const struct pmr_pairs_info *in = pmr_pairs_info(p);
	struct pmr_pairs_val v;
	double wm, wsd, mean, ratio;
	char key[32];
	size_t i;
	int k;

	fprintf(f, "{\"header\":{\"machine\":");
	pmr_json_str(f, in->machine);
	fprintf(f, ",\"config\":");
	pmr_json_str(f, in->digest);
	fprintf(f, ",\"sampler\":");
	pmr_json_str(f, in->sampler);
	fprintf(f, ",\"mode\":\"%s\",\"S\":%" PRIu64 ",\"W\":%u,\"C\":%u,"
	    "\"samples\":%" PRIu64 ",\"pairs\":%" PRIu64 ",\"fetched\":%"
	    PRIu64 ",\"S_eff\":%.10g,\"scale\":%.10g",
	    in->mode == 2 ? "paired" : "single", in->S, in->W, in->C,
	    in->samples, in->pairs, in->fetched, in->S_eff, in->s);
	if (in->mode == 2)
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
	rebuild_report(f, F_JSON);
	for (i = 0; i < n; i++) {
		fprintf(f, "{\"key\":");
		pmr_json_str(f, row_key(&rows[i], key, sizeof(key)));
		for (k = 0; k < o->nm; k++) {
			int ok = pmr_pairs_eval(p, &rows[i], o->mlist[k], &v);

			fprintf(f, ",\"%s\":{\"k\":%" PRIu64 ",\"est\":",
			    pmr_pairs_metric_name(o->mlist[k]), v.k);
			print_num(f, "%.10g", ok ? v.est : NAN, "null");
			fprintf(f, ",\"lo\":");
			print_num(f, "%.10g", ok ? v.lo : NAN, "null");
			fprintf(f, ",\"hi\":");
			print_num(f, "%.10g", ok ? v.hi : NAN, "null");
			if (o->truth) {
				fprintf(f, ",\"exact\":");
				print_num(f, "%.10g", v.exact, "null");
				fprintf(f, ",\"relerr\":");
				print_num(f, "%.6g", v.relerr, "null");
			}
			fputc('}', f);
		}
		fprintf(f, "}\n");
	}
}

/* Prints the distribution of latency o->hist of each row. */
static void
hist_report(FILE *f, const struct opts *o, const struct pmr_pairs *p,
    const struct pmr_pairs_row *rows, size_t n)
{
	static const char *const lat[] = { "fm", "md", "dx", "xr", "rr", "ld",
		"total" };
	uint64_t c[PMR_PAIRS_NB], tot, lo, hi;
	double s = pmr_pairs_info(p)->s;
	char key[32];
	size_t i;
	unsigned b;
	int w = 4;

	for (i = 0; i < n; i++)
		if ((int)strlen(row_key(&rows[i], key, sizeof(key))) > w)
			w = (int)strlen(key);
	if (o->fmt == F_TSV)
		fprintf(f, "#key\tlat\tlo\thi\tsamples\tfraction\test\n");
	else if (o->fmt == F_TEXT)
		fprintf(f, "%-*s  %-5s  %10s  %10s  %8s  %8s  %12s\n", w,
		o->by == PMR_PAIRS_BY_ALL ? "rows" : "key", "lat", "lo", "hi",
		    "samples", "fraction", "est");
	for (i = 0; i < n; i++) {
		if ((tot = pmr_pairs_hist(&rows[i], o->hist, c)) == 0)
			continue;
		row_key(&rows[i], key, sizeof(key));
		for (b = 0; b < PMR_PAIRS_NB; b++) {
			if (c[b] == 0)
				continue;
			lo = pmr_pairs_bucket_lo(b);
			hi = b + 1 < PMR_PAIRS_NB ? pmr_pairs_bucket_lo(b + 1) -
			    1 : UINT32_MAX - 1;
			if (o->fmt == F_JSON) {
				fprintf(f, "{\"key\":");
				pmr_json_str(f, key);
				fprintf(f, ",\"lat\":\"%s\",\"lo\":%" PRIu64
				    ",\"hi\":%" PRIu64 ",\"samples\":%" PRIu64
				    ",\"fraction\":%.6g,\"est\":%.10g}\n",
				    lat[o->hist], lo, hi, c[b],
				(double)c[b] / (double)tot, s * (double)c[b]);
			} else if (o->fmt == F_TSV) {
				fprintf(f, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%"
				    PRIu64 "\t%.6g\t%.10g\n", key, lat[o->hist],
				    lo, hi, c[b], (double)c[b] / (double)tot,
				    s * (double)c[b]);
			} else {
				fprintf(f, "%-*s  %-5s  %10" PRIu64 "  %10" PRIu64
				    "  %8" PRIu64 "  %8.4f  %12.0f\n", w, key,
				    lat[o->hist], lo, hi, c[b],
				    (double)c[b] / (double)tot, s * (double)c[b]);
			}
		}
	}
}

/*
 * Warns, in one line, when the effective sampling interval (fetched
 * instructions per sample or pair) is more than 10% away from the S of
 * META profileme, and further than the noise of n samples (3 / sqrt(n)): selections were lost, with the faithful re-arm of pmsim
 * (rearm=interrupt) to the dead time while a sample is in flight, which
 * falls unevenly on the pcs, so per-pc counts are biased by more than
 * their intervals allow for (pairs(1), CAVEATS).
 */
static void
warn_rearm(const struct pmr_pairs_info *in, int nominal)
{
	uint64_t n;
	double r;

	if (nominal || in->S == 0 || in->nstats == 0 || in->fetched == 0)
		return;
	/* and when the departure is more than the noise of fetched / n */
	r = in->S_eff / (double)in->S;
	n = in->mode == 2 ? in->pairs : in->samples;
	if (fabs(r - 1) <= 0.1 || fabs(r - 1) <= 3 / sqrt((double)n))
		return;
	warnx("effective S %.1f is %.2f times the configured S=%" PRIu64
	    "%s: per-pc counts are biased", in->S_eff, r, in->S,
	    strstr(in->sampler, "rearm=interrupt") != NULL ? " (rearm=interrupt "
	    "selects nothing while a sample is in flight; rearm=select does)" :
	    "");
}

/* Prints the accuracy of each count metric against TRUTH. */
static void
truth_summary(FILE *f, const struct opts *o, const struct pmr_pairs *p,
    const struct pmr_pairs_row *rows, size_t n)
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
			errx(1, "out of memory");
		if (sc.n == 0)
			continue;
		if (o->fmt == F_JSON) {
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
		o->fmt == F_TSV ? "#" : "# ", pmr_pairs_metric_name(m), sc.n,
		    v.count ? "expected k" : "k", o->min_k);
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
}

/* --- address, edge and path profiles -------------------------------- */

static const char *const prof_key[] = { "page", "set", "pc", "pc", "pc",
	"pc" };
static const char *const prof_key2[] = { NULL, NULL, "target", "history",
	"history", "history" };

/* Formats the second key of row r (target or history pattern). */
static const char *
prow_key2(const struct opts *o, const struct pmr_pairs_prow *r, char *buf,
    size_t cap)
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
prow_key(const struct opts *o, const struct pmr_pairs_prow *r, char *buf,
    size_t cap)
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
prof_summary(FILE *f, const struct opts *o, const struct pmr_pairs_prow *rows,
    size_t n)
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
	    "%.1f%%\n", o->fmt == F_TSV ? "#" : "# ", m,
	    100.0 * (double)in1 / (double)m, 100.0 * (double)in2 / (double)m,
	    100.0 * (double)cov / (double)m);
}

/* Builds the rows of the profile report into *rows, *n. */
static void
prof_rows(const struct opts *o, struct pmr_pairs *p,
    struct pmr_pairs_prow **rows, size_t *n)
{
	switch (pmr_pairs_prof(p, (enum pmr_pairs_prof)o->prof, &o->geom,
	    o->bits, rows, n)) {
	case 0:
		break;
	case PMR_EINVAL:
		errx(2, "bad cache geometry, page size or history bits");
	default:
		errx(1, "out of memory");
	}
}

static void
prof_report(FILE *f, const struct opts *o, struct pmr_pairs_prow *rows,
    size_t n)
{
	const char *k2 = prof_key2[o->prof];
	char key[32], key2[80], key3[32] = "";
	size_t i;
	int w = 6, w2 = 8, pp = o->prof == PMR_PAIRS_PROF_PPATH;
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
	if (o->fmt == F_TSV)
		fprintf(f, "#%s%s%s%s\tk\tn\test\tlo\thi\tfrac\tflo\tfhi%s\n",
		    prof_key[o->prof], k2 ? "\t" : "", k2 ? k2 : "", pp ?
		    "\tpartner" : "", ex ? "\texact\trelerr" : "");
	else if (o->fmt == F_TEXT) {
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
		if (o->fmt == F_JSON) {
			fprintf(f, "{\"%s\":", prof_key[o->prof]);
			pmr_json_str(f, key);
			if (k2 != NULL) {
				fprintf(f, ",\"%s\":", k2);
				pmr_json_str(f, key2);
			}
			if (pp) {
				fprintf(f, ",\"partner\":");
				pmr_json_str(f, key3);
			}
			fprintf(f, ",\"k\":%" PRIu64 ",\"n\":%" PRIu64
			    ",\"est\":%.10g,\"lo\":%.10g,\"hi\":%.10g,"
			    "\"frac\":%.10g,\"flo\":%.10g,\"fhi\":%.10g",
			    r->k, r->n, r->est, r->lo, r->hi, r->frac, r->flo,
			    r->fhi);
			if (ex) {
				fprintf(f, ",\"exact\":%.10g,\"relerr\":",
				    r->exact);
				print_num(f, "%.6g", r->exact > 0 ?
				    r->est / r->exact - 1 : NAN, "null");
			}
			fprintf(f, "}\n");
		} else if (o->fmt == F_TSV) {
			fprintf(f, "%s%s%s%s%s\t%" PRIu64 "\t%" PRIu64 "\t%.10g\t"
			    "%.10g\t%.10g\t%.10g\t%.10g\t%.10g", key,
			    k2 ? "\t" : "", k2 ? key2 : "", pp ? "\t" : "",
			    key3, r->k, r->n, r->est,
			    r->lo, r->hi, r->frac, r->flo, r->fhi);
			if (ex) {
				fprintf(f, "\t%.10g\t", r->exact);
				print_num(f, "%.6g", r->exact > 0 ?
				    r->est / r->exact - 1 : NAN, "-");
			}
			fputc('\n', f);
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
	if (ex && o->fmt != F_JSON)
		prof_summary(f, o, rows, nall);
}

/* Parses --cache=SIZE,WAYS,LINE. */
static void
parse_cache(struct opts *o, const char *arg)
{
	long long v[3] = { 0, 0, 0 };
	const long long max[3] = { 1LL << 40, 1024, 1 << 20 };
	unsigned long long sz, ways, line;
	const char *e = NULL;
	char buf[64], *tok = buf, *c;
	int i;

	/* each part strictly, in range: sscanf's %llu took "-1" as 2^64-1 */
	if (strlen(arg) >= sizeof(buf))
		e = "too long";
	else
		strcpy(buf, arg);
	for (i = 0; i < 3 && e == NULL; i++) {
		c = strchr(tok, ',');
		if ((c == NULL) != (i == 2)) {
			e = "invalid";
			break;
		}
		if (c != NULL)
			*c = '\0';
		v[i] = pmr_strtonum(tok, 1, max[i], &e);
		tok = c != NULL ? c + 1 : NULL;
	}
	sz = (unsigned long long)v[0];
	ways = (unsigned long long)v[1];
	line = (unsigned long long)v[2];
	if (e != NULL || (line & (line - 1)) != 0 || sz % (ways * line) != 0) {
		warnx("--cache '%s': give SIZE,WAYS,LINE (SIZE 1..2^40, WAYS "
		    "1..1024, LINE a power of 2 up to 2^20, SIZE a multiple "
		    "of WAYS x LINE)", arg);
		pmr_cli_usage();
	}
	o->geom.size = sz;
	o->geom.ways = (uint32_t)ways;
	o->geom.line = (uint32_t)line;
}

static const struct pmr_pairs *sort_p;
static int sort_m;

static int
cmp_rows(const void *x, const void *y)
{
	const struct pmr_pairs_row *a = x, *b = y;
	struct pmr_pairs_val va, vb;
	double ea, eb;

	ea = pmr_pairs_eval(sort_p, a, sort_m, &va) ? va.est : NAN;
	eb = pmr_pairs_eval(sort_p, b, sort_m, &vb) ? vb.est : NAN;
	if (isnan(ea) != isnan(eb))
		return isnan(ea) ? 1 : -1;
	if (!isnan(ea) && ea != eb)
		return ea > eb ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

static struct pmr_progress progress;	/* records read, on a terminal */
static uint64_t nrec;

/*
 * Reads every record of path into p; with w (writing to output), passes the
 * others through.
 */
static void
read_input(struct pmr_pairs *p, const char *path, struct pmr_writer *w,
    const char *output)
{
	struct pmr_reader *r;
	struct pmr_rec rec;
	const char *name = path ? path : "-";
	int e, rc;

	if ((r = pmr_reader_open(path, 0, &e)) == NULL)
		errx(1, "cannot open '%s': %s", name, pmr_strerror(e));
	while ((rc = pmr_reader_next(r, &rec)) == 1) {
		nrec++;
		if ((e = pmr_pairs_add(p, &rec)) < 0)
			errx(1, "'%s': %s", name, pmr_pairs_errmsg(p));
		if (e == 0 && w != NULL &&
		    pmr_write_raw(w, rec.type, rec.p, rec.len) != 0)
			errx(1, "%s: %s", pmr_outname(output),
			    pmr_writer_errmsg(w));
	}
	if (rc < 0)
		errx(1, "'%s': %s", name, pmr_reader_errmsg(r));
	pmr_reader_close(r);
}

int
main(int argc, char *argv[])
{
	static const struct option long_opts[] = {
		{ "aborts", required_argument, NULL, O_ABORTS },
		{ "boot", required_argument, NULL, O_BOOT },
		{ "by", required_argument, NULL, 'b' },
		{ "cache", required_argument, NULL, O_CACHE },
		{ "ci", required_argument, NULL, O_CI },
		{ "confidence", required_argument, NULL, O_CONFIDENCE },
		{ "delta", required_argument, NULL, O_DELTA },
		{ "edges", no_argument, NULL, O_EDGES },
		{ "format", required_argument, NULL, 'f' },
		{ "hist", required_argument, NULL, O_HIST },
		{ "if", required_argument, NULL, O_IF },
		{ "list", no_argument, NULL, 'l' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "min-samples", required_argument, NULL, O_MIN_SAMPLES },
		{ "nominal", no_argument, NULL, O_NOMINAL },
		{ "occupancy", no_argument, NULL, O_OCCUPANCY },
		{ "page-size", required_argument, NULL, O_PAGE_SIZE },
		{ "partner", no_argument, NULL, O_PARTNER },
		{ "paths", required_argument, NULL, O_PATHS },
		{ "pc", required_argument, NULL, 'p' },
		{ "proc", required_argument, NULL, O_PROC },
		{ "rebuild", required_argument, NULL, O_REBUILD },
		{ "sort", required_argument, NULL, 's' },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		{ "top", required_argument, NULL, 'n' },
		{ "truth", no_argument, NULL, 't' },
		{ "width", required_argument, NULL, 'C' },
		{ "window", required_argument, NULL, 'W' },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct opts o;
	struct pmr_pairs *p;
	struct pmr_pairs_row *rows;
	struct pmr_writer *w = NULL;
	struct pmr_textout tout;
	struct pmr_pairs_prow *prows;
	struct pmr_pairs_rebuild rbres;
	size_t npr;
	uint32_t boot = 200;
	int ci_boot = 0;
	const char *note;
	char *end, ebuf[256];
	size_t n;
	int ch, i, r;

	pmr_cli_init("pairs", synopsis, help);
	memset(&o, 0, sizeof(o));
	pmr_common_init(&o.c);
	o.sort = -1;
	o.hist = -1;
	o.min_k = 10;
	o.po.confidence = 0.95;
	o.prof = -1;
	o.geom.page = 8192;
	o.geom.size = 65536;
	o.geom.ways = 2;
	o.geom.line = 64;
	while ((ch = getopt_long(argc, argv,
	    "b:C:f:lm:n:p:s:tW:" PMR_COMMON_SHORTOPTS, long_opts,
	    NULL)) != -1) {
		switch (ch) {
		case O_ABORTS:
			if (strcmp(optarg, "count") == 0)
				o.po.aborts = PMR_PAIRS_ABORT_COUNT;
			else if (strcmp(optarg, "zero") == 0)
				o.po.aborts = PMR_PAIRS_ABORT_ZERO;
			else {
				warnx("unknown --aborts rule '%s' (count, "
				    "zero)", optarg);
				pmr_cli_usage();
			}
			break;
		case 'b':
			if (strcmp(optarg, "pc") == 0)
				o.by = PMR_PAIRS_BY_PC;
			else if (strcmp(optarg, "image") == 0)
				o.by = PMR_PAIRS_BY_IMAGE;
			else if (strcmp(optarg, "proc") == 0)
				o.by = PMR_PAIRS_BY_PROC;
			else if (strcmp(optarg, "all") == 0)
				o.by = PMR_PAIRS_BY_ALL;
			else if (strcmp(optarg, "context") == 0)
				o.by = PMR_PAIRS_BY_CONTEXT;
			else if (strcmp(optarg, "page") == 0)
				o.prof = PMR_PAIRS_PROF_PAGE;
			else if (strcmp(optarg, "set") == 0)
				o.prof = PMR_PAIRS_PROF_SET;
			else {
				warnx("unknown grouping '%s' (pc, proc, "
				    "image, all, context, page, set)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_BOOT:
			boot = (uint32_t)pmr_cli_num("--boot", optarg, 2,
			    PMR_PAIRS_BOOT_MAX);
			break;
		case O_CACHE:
			parse_cache(&o, optarg);
			break;
		case O_CI:
			/* delta: the name of score before it */
			if (strcmp(optarg, "score") == 0 ||
			    strcmp(optarg, "delta") == 0)
				ci_boot = 0;
			else if (strcmp(optarg, "bootstrap") == 0)
				ci_boot = 1;
			else {
				warnx("unknown --ci method '%s' (score, "
				    "bootstrap)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_DELTA:
			o.po.delta = (uint32_t)pmr_cli_num("--delta", optarg, 1,
			    1 << 20);
			break;
		case O_EDGES:
			o.prof = PMR_PAIRS_PROF_EDGE;
			break;
		case O_PAGE_SIZE:
			o.geom.page = pmr_cli_num("--page-size", optarg, 1,
			    (long long)1 << 40);
			if ((o.geom.page & (o.geom.page - 1)) != 0) {
				warnx("--page-size '%s' is not a power of 2",
				    optarg);
				pmr_cli_usage();
			}
			break;
		case O_PARTNER:
			o.partner = 1;
			break;
		case O_PATHS:
			o.bits = (unsigned)pmr_cli_num("--paths", optarg, 1,
			    64);
			o.prof = PMR_PAIRS_PROF_PATH;
			break;
		case O_PROC:
			o.po.proc = optarg;
			break;
		case O_SYSROOT:
			o.po.sysroot = optarg;
			break;
		case O_REBUILD:
			o.rebuild = optarg;
			o.po.keep_paths = 1;
			break;
		case 'C':
			o.po.width = (uint32_t)pmr_cli_num("--width", optarg, 1,
			    64);
			break;
		case O_CONFIDENCE:
			errno = 0;
			o.po.confidence = strtod(optarg, &end);
			if (*end != '\0' || end == optarg || errno != 0 ||
			    !(o.po.confidence > 0 && o.po.confidence < 1)) {
				warnx("--confidence '%s' is not in (0, 1)",
				    optarg);
				pmr_cli_usage();
			}
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0)
				o.fmt = F_TEXT;
			else if (strcmp(optarg, "tsv") == 0)
				o.fmt = F_TSV;
			else if (strcmp(optarg, "json") == 0)
				o.fmt = F_JSON;
			else if (strcmp(optarg, "pmr") == 0)
				o.fmt = F_PMR;
			else {
				warnx("unknown format '%s' (text, tsv, json, "
				    "pmr)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_HIST:
			if ((o.hist = pmr_pairs_lat_find(optarg)) < 0) {
				warnx("--hist: unknown latency '%s' (fm, md, "
				    "dx, xr, rr, ld, total)", optarg);
				pmr_cli_usage();
			}
			break;
		case O_IF:
			parse_if(&o, optarg);
			o.if_arg = optarg;
			break;
		case 'l':
			o.list = 1;
			break;
		case 'm':
			parse_metrics(&o, optarg);
			break;
		case O_MIN_SAMPLES:
			o.min_k = pmr_cli_num("--min-samples", optarg, 0,
			    LLONG_MAX);
			break;
		case 'n':
			o.top = pmr_cli_num("--top", optarg, 1, LLONG_MAX);
			break;
		case O_NOMINAL:
			o.po.nominal = 1;
			break;
		case O_OCCUPANCY:
			o.po.occupancy = 1;
			break;
		case 'p':
			parse_range(&o, optarg);
			break;
		case 's':
			if ((o.sort = pmr_pairs_metric_find(optarg)) < 0) {
				warnx("unknown metric '%s' (pairs -l lists "
				    "them)", optarg);
				pmr_cli_usage();
			}
			break;
		case 't':
			o.truth = 1;
			break;
		case 'W':
			o.po.window = (uint32_t)pmr_cli_num("--window", optarg,
			    1, 1 << 20);
			break;
		default:
			pmr_cli_common(&o.c, ch, optarg);
		}
	}
	if (o.po.proc != NULL && o.po.pc_hi != 0) {
		warnx("--proc and --pc exclude each other");
		pmr_cli_usage();
	}
	argc -= optind;
	argv += optind;
	if (o.partner && o.prof != PMR_PAIRS_PROF_PATH) {
		warnx("--partner needs --paths");
		pmr_cli_usage();
	}
	if (o.partner)
		o.prof = PMR_PAIRS_PROF_PPATH;
	/* the occ_ and fu_ sums cost time: only when asked for */
	for (i = 0; i < o.nm && !o.m_all; i++)
		o.po.occupancy |= pmr_pairs_metric_occ(o.mlist[i]);
	if (o.sort >= 0)
		o.po.occupancy |= pmr_pairs_metric_occ(o.sort);
	if (ci_boot) {
		o.po.boot = boot;
		o.po.seed = o.c.seed;
	}
	if (o.by == PMR_PAIRS_BY_CONTEXT) {
		if (o.fmt == F_PMR) {
			warnx("--by=context cannot be combined with -f pmr");
			pmr_cli_usage();
		}
		o.po.by_context = 1;
	}
	if (o.rebuild != NULL && o.fmt == F_PMR) {
		warnx("--rebuild cannot be combined with -f pmr");
		pmr_cli_usage();
	}
	/* paths compared with the trace: retired samples only */
	if (o.rebuild != NULL && o.truth && o.prof == PMR_PAIRS_PROF_PATH)
		o.prof = PMR_PAIRS_PROF_RPATH;
	if (o.prof >= 0 && o.hist >= 0) {
		warnx("--hist cannot be combined with --by=page, --by=set, "
		    "--edges or --paths");
		pmr_cli_usage();
	}

	if (o.list) {
		for (i = 0; i < pmr_pairs_nmetrics(); i++)
			printf("%-14s %s%s\n", pmr_pairs_metric_name(i),
			    pmr_pairs_metric_desc(i),
			    pmr_pairs_metric_paired(i) ? " [pairs]" : "");
		goto out;
	}
	if (argc == 0 && isatty(STDIN_FILENO)) {
		/* a bare run on a terminal: nothing to read */
		fputs(synopsis, stdout);
		goto out;
	}
	if (o.fmt == F_PMR) {
		if (pmr_common_tty_refused(&o.c))
			errx(1, "refusing to write binary records to a "
			    "terminal (use -o or --force)");
		if ((w = pmr_common_writer(&o.c, "pairs", argc + optind,
		    argv - optind, &r)) == NULL)
			errx(1, "cannot create %s: %s",
			    pmr_outname(o.c.output), pmr_strerror(r));
	}
	if ((p = pmr_pairs_new(&o.po)) == NULL)
		err(1, NULL);
	pmr_progress_start(&progress, "pairs", " records", &nrec, 0,
	    o.c.quiet);
	if (argc == 0)
		read_input(p, NULL, w, o.c.output);
	for (i = 0; i < argc; i++)
		read_input(p, strcmp(argv[i], "-") == 0 ? NULL : argv[i], w,
		    o.c.output);
	pmr_progress_end(&progress);
	if (pmr_pairs_finish(p) != 0)
		errx(1, "'%s': %s", argc == 1 ? argv[0] : argc == 0 ? "-" :
		    "input", pmr_pairs_errmsg(p));
	if (!o.c.quiet)
		warn_rearm(pmr_pairs_info(p), o.po.nominal);
	if (w != NULL) {
		if (pmr_pairs_write(p, w) != 0) {
			pmr_writer_abort(w);
			errx(1, "%s: %s", pmr_outname(o.c.output),
			    pmr_pairs_errmsg(p));
		}
		if (pmr_writer_close(w, ebuf, sizeof(ebuf)) != 0)
			errx(1, "%s: %s", pmr_outname(o.c.output), ebuf);
		pmr_pairs_free(p);
		goto out;
	}
	if (o.nm == 0)
		default_metrics(&o, pmr_pairs_info(p)->mode);
	prows = NULL;
	npr = 0;
	if (o.prof >= 0)
		prof_rows(&o, p, &prows, &npr);
	if (o.truth && o.prof >= 0 && o.prof <= PMR_PAIRS_PROF_SET &&
	    !o.c.quiet) {
		const struct pmr_pairs_info *in = pmr_pairs_info(p);

		if (in->natruth == 0)
			warnx("no exact values: the input has no ATRUTH "
			    "records (pmsim --truth writes them)%s",
			    o.if_arg != NULL ? " or --if drops them" : "");
		else if (npr > 0 && isnan(prows[0].exact))
			warnx("no exact values: the ATRUTH lines (%u bytes) "
			    "are larger than the %s", in->abytes,
			    o.prof == PMR_PAIRS_PROF_PAGE ? "page" :
			    "--cache line");
	}
	if (o.rebuild != NULL) {
		int ex = o.truth && (o.prof == PMR_PAIRS_PROF_EDGE ||
		    o.prof == PMR_PAIRS_PROF_RPATH);

		if (pmr_pairs_rebuild_run(p, o.rebuild,
		    (enum pmr_pairs_prof)o.prof, o.bits, ex ? prows : NULL, ex ?
		    npr : 0, &rbres, ebuf, sizeof(ebuf)) != 0)
			errx(1, "--rebuild: %s", ebuf);
		rb = &rbres;
		rb_trace = o.rebuild;
	}
	if (pmr_pairs_rows(p, o.by, &rows, &n, &note) != 0)
		errx(1, "out of memory");
	if (note != NULL && pmr_pairs_info(p)->nimg == 0)
		o.by = PMR_PAIRS_BY_PC;
	if (note != NULL && !o.c.quiet)
		warnx("%s", note);
	by_context = o.by == PMR_PAIRS_BY_CONTEXT;
	sort_p = p;
	sort_m = o.sort >= 0 ? o.sort : 0;
	qsort(rows, n, sizeof(*rows), cmp_rows);
	if (pmr_textout_open(&tout, o.c.output) != 0)
		err(1, "cannot create '%s'", o.c.output);
	if (o.prof >= 0) {
		if (o.fmt != F_JSON)
			header(tout.f, &o, pmr_pairs_info(p), argc, argv);
		rebuild_report(tout.f, o.fmt);
		prof_report(tout.f, &o, prows, npr);
	} else if (o.hist >= 0) {
		if (o.fmt != F_JSON)
			header(tout.f, &o, pmr_pairs_info(p), argc, argv);
		rebuild_report(tout.f, o.fmt);
		hist_report(tout.f, &o, p, rows,
		    o.top && o.top < n ? o.top : n);
	} else if (o.fmt == F_JSON)
		json_report(tout.f, &o, p, rows,
		    o.top && o.top < n ? o.top : n);
	else {
		header(tout.f, &o, pmr_pairs_info(p), argc, argv);
		rebuild_report(tout.f, o.fmt);
		if (o.fmt == F_TSV)
			tsv_report(tout.f, &o, p, rows,
			    o.top && o.top < n ? o.top : n);
		else
			text_report(tout.f, &o, p, rows,
			    o.top && o.top < n ? o.top : n);
	}
	if (o.truth && o.hist < 0 && o.prof < 0)
		truth_summary(tout.f, &o, p, rows, n);
	if (tout.f != stdout && (ferror(tout.f) ||
	    pmr_textout_close(&tout, 1) != 0))
		err(1, "cannot write '%s'", o.c.output);
	pmr_pairs_free(p);
out:
	free(o.mlist);
	if (ferror(stdout) | fclose(stdout))
		err(1, "stdout");
	return 0;
}
