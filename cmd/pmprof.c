/*
 * pmprof: DCPI's profiles (Anderson et al., SOSP '97 §3) over the SAMPLE
 * records of any sampler pmsim has, each figure beside TRUTH from the same
 * run.  One verb per report, as git and perf have:
 *
 *   images, procs   samples per image / procedure (dcpiprof)
 *   list PROC       annotated code of one procedure (dcpilist)
 *   score           every sampler's error against the truth
 *   stats RUN...    variation across runs (dcpistats)
 *   diff A B        differences between two runs, noise told apart
 *   export          callgrind, pprof, folded stacks
 *   db FILE add     a profile database (DCPI's, in SQLite)
 *   import          Linux perf's AMD IBS / Arm SPE samples as SAMPLEs
 *   calc PROC       DCPI's stall analysis of an in-order run (dcpicalc)
 *
 * The model and the reports live in lib/prof/; this file parses the
 * options, reads the inputs (one run each) and says what went wrong.  See
 * pmprof(1).
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prof/calcrep.h"
#include "prof/db.h"
#include "prof/import.h"
#include "prof/prof.h"
#include "prof/report.h"
#include "stream/pmr.h"
#include "util/cli.h"
#include "util/table.h"

enum {
	O_SYSROOT = PMR_OPT_PRIVATE, O_ALPHA, O_DETAIL, O_BY, O_DB,
	O_EPOCH, O_KIND, O_WHATCG, O_TOP_STALLS, O_SCORE, O_HISTOGRAM
};

enum verb { V_IMAGES, V_PROCS, V_LIST, V_SCORE, V_STATS, V_DIFF,
	V_EXPORT, V_DB, V_IMPORT, V_CALC, V_NVERB };

static const char *const verbs[] = { "images", "procs", "list", "score",
	"stats", "diff", "export", "db", "import", "calc", NULL };

#define MAXEPOCH 64

static const char synopsis[] =
    "usage: pmprof images|procs|score [-qv] [-e events] [-f format] "
    "[-n rows] [-o file]\n"
    "              [--sysroot=dir] [file ...]\n"
    "       pmprof list [options] procedure [file ...]\n"
    "       pmprof stats|diff [options] file file ...\n"
    "       pmprof export -t callgrind|pprof|folded [options] [file ...]\n"
    "       pmprof db database add [--epoch=name] [file ...]\n"
    "       pmprof db database epochs\n"
    "       pmprof import [--kind=kind] [-o file] [file]\n"
    "       pmprof calc [--score | --histogram] [--top-stalls=n] "
    "[-f format]\n              "
    "procedure|--whatcg\n"
    "              [file ...]\n";

static void
help(void)
{
	printf("usage: pmprof verb [options] [file ...]\n"
	    "DCPI's profiles over pmsim's SAMPLE records (any sampler), each "
	    "beside the\nexact TRUTH of the same run; every file is one run "
	    "(\"-\" or none: standard input).\n\n"
	    "Verbs:\n"
	    "  images             samples per image, %% and cumulative %% "
	    "(dcpiprof -i)\n"
	    "  procs              samples per procedure (dcpiprof)\n"
	    "  list PROC          annotated code of procedure PROC: samples, "
	    "ProfileMe's\n"
	    "                     stage latencies, basic blocks (dcpilist)\n"
	    "  score              each sampler's error against TRUTH's "
	    "oracle cycles and\n"
	    "                     retired counts, per instruction, block, "
	    "procedure\n"
	    "  stats RUN...       per procedure: range%%, mean, std-dev, min, "
	    "max across\n"
	    "                     runs (dcpistats)\n"
	    "  diff A B           per procedure: the change between two runs "
	    "and whether it\n"
	    "                     is beyond sampling noise\n"
	    "  export             the profile for other tools (-t)\n"
	    "  db DB add FILE...  add the runs to profile database DB "
	    "(SQLite), in one\n"
	    "                     transaction, as epoch --epoch\n"
	    "  db DB epochs       list the epochs of DB\n"
	    "  import [FILE]      perf script text of AMD IBS op or Arm SPE "
	    "samples to a\n"
	    "                     stream of SAMPLE records\n"
	    "  calc PROC          DCPI's stall analysis of an in-order run's "
	    "CYCLES samples:\n"
	    "                     frequencies, CPI, static stalls and "
	    "culprits, dynamic\n"
	    "                     causes by elimination (dcpicalc)\n\n"
	    "Options:\n"
	    "      --alpha=P        diff: family-wise significance level "
	    "[0.05]\n"
	    "      --db=DB          read the runs from profile database DB "
	    "(its epochs)\n"
	    "                       instead of streams\n"
	    "      --by=G           score --detail and export -t folded: "
	    "image, proc,\n"
	    "                       block or insn [proc]\n"
	    "      --detail         score: the rows of --by for the first "
	    "event too\n"
	    "  -e, --event=LIST     event columns, comma-separated, the first "
	    "primary:\n"
	    "                       sampler names (tip, profileme, "
	    "counter:cycles, ...),\n"
	    "                       sample bits (profileme:dmiss), truth:cycles,"
	    "\n"
	    "                       truth:retired [every sampler's]\n"
	    "      --epoch=NAME     db add: the epoch [UTC YYYYMMDDHHMM]; with "
	    "--db: read\n"
	    "                       this epoch (repeatable) [every epoch]\n"
	    "  -f, --format=FMT     text, tsv or json [text]\n"
	    "      --kind=K         import: auto, ibs or spe [auto]\n"
	    "      --histogram      calc: the frequency errors in 5%% "
	    "buckets (Figs. 8, 9)\n"
	    "      --score          calc: the accuracy against TRUTH: "
	    "frequencies within\n"
	    "                       5/10/15%%, edges, causes (one run and "
	    "all merged)\n"
	    "      --top-stalls=N   calc: the N instructions that stall "
	    "most\n"
	    "      --whatcg         calc: every procedure of the images "
	    "(dcpiwhatcg)\n"
	    "  -n, --top=N          print N rows at most [all]\n"

	    "      --sysroot=DIR    look up the images' files under DIR\n"
	    "  -t, --type=T         export: callgrind, pprof (gzipped "
	    "profile.proto) or\n"
	    "                       folded\n\n"
	    "(-z, --level, --no-pg and --seed below shape import's stream)\n\n"
	    "%s", pmr_common_help);
}

static struct pmr_common com;

static void PMR_NORETURN PMR_FORMAT(1, 2)
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(1, fmt, ap);
}

/* Reads the files, one run each. */
static void
read_runs(struct pmr_prof *p, int n, char *const *files)
{
	char *stdin_only[] = { "-" };
	int i;

	if (n == 0) {
		n = 1;
		files = stdin_only;
	}
	for (i = 0; i < n; i++) {
		const char *name = files[i];
		struct pmr_reader *r;
		struct pmr_rec rec;
		int e, rc;

		if (pmr_prof_begin_run(p, name) != 0)
			die("out of memory");
		if ((r = pmr_reader_open(strcmp(name, "-") == 0 ? NULL : name,
		    0, &e)) == NULL)
			die("cannot open '%s': %s", name, pmr_strerror(e));
		while ((rc = pmr_reader_next(r, &rec)) == 1)
			if (pmr_prof_add(p, &rec) < 0)
				die("'%s': %s", name, pmr_prof_errmsg(p));
		if (rc < 0)
			die("'%s': %s", name, pmr_reader_errmsg(r));
		pmr_reader_close(r);
	}
}

/* The event columns: -e, or every sampler's sample event. */
static long *
pick_events(struct pmr_prof *p, const char *list, size_t *n)
{
	size_t k, m = 0, nev = pmr_prof_nevent(p);
	long *ev;

	if ((ev = calloc(nev + 64, sizeof(*ev))) == NULL)
		die("out of memory");
	if (list != NULL) {
		struct pmr_items it;
		const char *item;

		pmr_items_init(&it, list);
		while ((item = pmr_items_next(&it)) != NULL) {
			long e = pmr_prof_event_find(p, item);

			if (e < 0) {
				char have[1024];
				size_t len = 0;

				have[0] = '\0';
				for (k = 0; k < nev && len < sizeof(have);
				    k++)
					len += (size_t)snprintf(have + len,
					    sizeof(have) - len, "%s%s",
					    k ? ", " : "", pmr_prof_event(p,
					    k));
				die("--event: no event '%s' in the input "
				    "(it has: %s)", item, nev ? have :
				    "none");
			}
			if (m < nev + 63)
				ev[m++] = e;
		}
	} else
		for (k = 0; k < nev; k++)
			if (pmr_prof_evkind(p, k) == PMR_PROF_EV_SAMPLE)
				ev[m++] = (long)k;
	if (m == 0)
		die("no SAMPLE or PAIR records in the input (pmsim "
		    "--profileme or --sampler)");
	*n = m;
	return ev;
}

/* What calc shows. */
struct calcview {
	const char *proc;	/* NULL: --whatcg */
	int whatcg, score, tsv, hist;
	size_t top;
};

struct psum {
	size_t run;
	long ev;
	double *n;
	uint64_t *page;		/* the sampled pages, up to npage */
	size_t npage, maxpage;
	unsigned shift;
};

static int
count_samples(void *arg, size_t run, size_t ev, uint64_t pc, double v)
{
	struct psum *ps = arg;
	size_t k;

	if ((long)ev != ps->ev)
		return 0;
	ps->n[run] += v;
	for (k = 0; k < ps->npage && ps->page[k] != pc >> ps->shift; k++)
		;
	if (k == ps->npage && ps->npage <= ps->maxpage)
		ps->page[ps->npage++] = pc >> ps->shift;
	return 0;
}

/*
 * Reads what calc needs of the runs: the machine (every run's META config,
 * one in-order machine), the CYCLES samples, P for run (-1: all), the
 * TRUTH events.  Returns 0, or PMR_EINVAL with *msg.
 */
static int
calc_setup(struct pmr_prof *p, long run, struct pmr_sim_config *cfg,
    struct pmr_calc_opts *o, const char **msg)
{
	static char buf[512];
	size_t r, nrun = pmr_prof_nrun(p), t;
	uint64_t dg = 0;
	double cyc = 0, ns = 0, *n;
	struct psum ps;
	char eb[256], name[32];

	memset(o, 0, sizeof(*o));
	o->cfg = cfg;
	o->run = run;
	*msg = buf;
	for (r = 0; r < nrun; r++) {
		const struct pmr_prof_run *ri = pmr_prof_runinfo(p, r);
		struct pmr_sim_config c;

		if (ri->config == NULL) {
			snprintf(buf, sizeof(buf), "'%s': no machine (pmsim's "
			    "META config): calc needs the core that ran",
			    ri->name);
			return PMR_EINVAL;
		}
		if (pmr_sim_config_text(&c, ri->config, ri->nconfig, eb,
		    sizeof(eb)) != 0) {
			snprintf(buf, sizeof(buf), "'%s': META config: %s",
			    ri->name, eb);
			return PMR_EINVAL;
		}
		if (!c.inorder) {
			snprintf(buf, sizeof(buf), "'%s': an out-of-order "
			    "core (inorder = 0): its PC samples cannot tell "
			    "why it stalled (DCPI, SOSP '97 §6); use "
			    "ProfileMe's paired samples instead (pmsim "
			    "--profileme=paired, then pairs)", ri->name);
			return PMR_EINVAL;
		}
		if (r > 0 && pmr_sim_config_digest(&c) != dg) {
			snprintf(buf, sizeof(buf), "'%s': another machine "
			    "than the first run's", ri->name);
			return PMR_EINVAL;
		}
		dg = pmr_sim_config_digest(&c);
		*cfg = c;
		cyc += run < 0 || (long)r == run ? (double)ri->cycles : 0;
	}
	if ((o->ev_s = pmr_prof_event_find(p, "counter:cycles")) < 0) {
		snprintf(buf, sizeof(buf), "no CYCLES samples in the input "
		    "(pmsim --sampler=counter,event=cycles)");
		return PMR_EINVAL;
	}
	if ((n = calloc(nrun + 1, sizeof(*n))) == NULL) {
		snprintf(buf, sizeof(buf), "out of memory");
		return PMR_ENOMEM;
	}
	ps.ev = o->ev_s;
	ps.n = n;
	/* the pages of sampled code: if the ITLB holds them all, it misses
	 * on their first touch alone (DCPI rules a cause out when the data
	 * say so, §6.3) */
	ps.maxpage = cfg->itlb;
	ps.npage = 0;
	for (ps.shift = 0; cfg->page > 1 && (1u << ps.shift) < cfg->page;)
		ps.shift++;
	if ((ps.page = calloc(ps.maxpage + 2, sizeof(*ps.page))) == NULL) {
		free(n);
		snprintf(buf, sizeof(buf), "out of memory");
		return PMR_ENOMEM;
	}
	(void)pmr_prof_each(p, count_samples, &ps);
	o->itlb_fits = ps.npage <= cfg->itlb && cfg->itlb > 0;
	free(ps.page);
	for (r = 0; r < nrun; r++)
		ns += run < 0 || (long)r == run ? n[r] : 0;
	free(n);
	if (ns == 0 || cyc == 0) {
		snprintf(buf, sizeof(buf), "no CYCLES samples or no cycles "
		    "(STATS) in the run%s", run < 0 ? "s" : "");
		return PMR_EINVAL;
	}
	o->period = cyc / ns;
	o->ev_ret = pmr_prof_event_find(p, "truth:retired");
	o->ev_taken = pmr_prof_event_find(p, "truth:taken");
	o->ev_head = pmr_prof_event_find(p, "truth:head");
	for (t = 0; t < PMR_CALC_NTRUTH; t++) {
		snprintf(name, sizeof(name), "truth:hd:%s",
		    pmr_calc_truth_name[t]);
		o->ev_hd[t] = pmr_prof_event_find(p, name);
	}
	*msg = NULL;
	return 0;
}

/* Groups every pc of p by instruction once, for all the procedures'
 * analyses (each would group the whole profile again). */
static int
all_insns(struct pmr_prof *p, struct pmr_calc_opts *o)
{
	struct pmr_prof_row *rows;
	size_t n;
	int rc;

	if ((rc = pmr_prof_group(p, PMR_PROF_BY_INSN, 1, 0, UINT64_MAX,
	    &rows, &n, NULL)) != 0)
		return rc;
	o->rows = rows;
	o->nrows = n;
	return 0;
}

struct cproc {
	const char *name;
	size_t img;
	uint64_t lo, hi;
	double s;
};

static int
cmp_cproc(const void *x, const void *y)
{
	const struct cproc *a = x, *b = y;

	return a->s < b->s ? 1 : a->s > b->s ? -1 : a->lo < b->lo ? -1 :
	    a->lo > b->lo;
}

/* A run whose trace names no binary (ChampSim, drmemtrace) has no code
 * for calc to read. */
#define NOIMAGES " (the runs have no IMAGE records: their trace names no " \
	"binary, as a ChampSim or drmemtrace trace does not)"

/* The procedures to analyse: proc, or every one with samples. */
static struct cproc *
calc_procs(struct pmr_prof *p, const char *proc, long ev, size_t *n,
    const char **msg)
{
	static char buf[512];
	struct pmr_prof_row *rows;
	struct cproc *v;
	const char *note = NULL;
	size_t nr, i, m = 0, nev = pmr_prof_nevent(p);

	*n = 0;
	if (proc != NULL) {
		if ((v = calloc(1, sizeof(*v))) == NULL)
			return NULL;
		if (!pmr_images_proc(pmr_prof_images(p), proc, &v->img,
		    &v->lo, &v->hi)) {
			free(v);
			snprintf(buf, sizeof(buf), "no procedure '%s' in the "
			    "images' symbols%s", proc,
			    pmr_images_count(pmr_prof_images(p)) == 0 ?
			    NOIMAGES : "");
			*msg = buf;
			return NULL;
		}
		v->name = proc;
		*n = 1;
		return v;
	}
	if (pmr_prof_group(p, PMR_PROF_BY_PROC, 0, 0, UINT64_MAX, &rows, &nr,
	    &note) != 0 || (v = calloc(nr + 1, sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < nr; i++)
		if (rows[i].proc != NULL && rows[i].img >= 0 &&
		    rows[i].v[ev] > 0) {
			v[m].name = rows[i].proc;
			v[m].img = (size_t)rows[i].img;
			v[m].lo = rows[i].lo;
			v[m].hi = rows[i].hi;
			v[m++].s = rows[i].v[ev];
		}
	(void)nev;
	qsort(v, m, sizeof(*v), cmp_cproc);
	*n = m;
	if (m == 0) {
		free(v);
		snprintf(buf, sizeof(buf), "no CYCLES samples in any "
		    "procedure of the images' symbols%s%s%s",
		    pmr_images_count(pmr_prof_images(p)) == 0 ? NOIMAGES : "",
		    note != NULL ? "; " : "", note != NULL ? note : "");
		*msg = buf;
		return NULL;
	}
	return v;
}

/* Says that n procedures were left out, their code unreadable (text: a
 * note line; TSV: a comment). */
static void
skipped_note(FILE *f, int tsv, size_t n)
{
	if (n > 0)
		fprintf(f, "%s%zu procedure%s without code left out (the "
		    "images' files cannot be read)\n", tsv ? "#note\t" :
		    "note: ", n, n == 1 ? "" : "s");
}

/* Scores the analysis of run (-1: all merged) over the procedures. */
static int
calc_score(FILE *f, struct pmr_prof *p, const struct cproc *pr, size_t np,
    long run, const char *label, int header, int tsv, int hist,
    const char **msg)
{
	static char buf[512];
	struct pmr_sim_config cfg;
	struct pmr_calc_opts o;
	struct pmr_calc_score sc;
	struct pmr_calc_proc cp;
	size_t i, skipped = 0;
	int rc;

	if ((rc = calc_setup(p, run, &cfg, &o, msg)) != 0)
		return rc;
	if (o.ev_ret < 0) {
		*msg = "--score: no TRUTH in the input (pmsim --truth)";
		return PMR_EINVAL;
	}
	if (np > 1 && (rc = all_insns(p, &o)) != 0) {
		*msg = "out of memory";
		return rc;
	}
	memset(&sc, 0, sizeof(sc));
	for (i = 0; i < np; i++) {
		if ((rc = pmr_calc_proc(p, &o, pr[i].name, pr[i].img,
		    pr[i].lo, pr[i].hi, &cp, buf, sizeof(buf))) != 0) {
			/* no code: as DCPI, not tallied, and said; none
			 * at all is no score */
			if (rc == PMR_ENOMEM || ++skipped == np) {
				*msg = buf;
				return rc;
			}
			continue;
		}
		pmr_calc_score_add(&sc, &cp);
		pmr_calc_proc_free(&cp);
	}
	if (hist)
		pmr_calc_report_hist(f, label, &sc, header, tsv);
	else
		pmr_calc_report_score(f, label, &sc, header, tsv);
	skipped_note(f, tsv, skipped);
	return 0;
}

/* pmprof calc */
static int
calc(FILE *f, struct pmr_prof *p, const struct calcview *cv,
    const char **msg)
{
	static char buf[512];
	struct pmr_sim_config cfg;
	struct pmr_calc_opts o;
	struct pmr_calc_sum sum;
	struct pmr_calc_tops top;
	struct pmr_calc_proc cp;
	struct cproc *pr;
	size_t np, i, nrun = pmr_prof_nrun(p), skipped = 0;
	int rc;

	if ((rc = calc_setup(p, -1, &cfg, &o, msg)) != 0)
		return rc;
	if ((pr = calc_procs(p, cv->proc, o.ev_s, &np, msg)) == NULL)
		return *msg != NULL ? PMR_EINVAL : PMR_ENOMEM;
	if (np > 1 && !cv->score && (rc = all_insns(p, &o)) != 0) {
		free(pr);
		*msg = "out of memory";
		return rc;
	}
	memset(&sum, 0, sizeof(sum));
	memset(&top, 0, sizeof(top));
	if (cv->whatcg && !cv->score && !cv->tsv && !cv->top)
		fprintf(f, "%-32s %10s %7s %7s %7s %7s %s\n", "procedure",
		    "samples", "best", "actual", "static", "dynamic",
		    "top cause");
	for (i = 0; i < np && !cv->score; i++) {
		struct pmr_calc_sum one;

		rc = pmr_calc_proc(p, &o, pr[i].name, pr[i].img, pr[i].lo,
		    pr[i].hi, &cp, buf, sizeof(buf));
		if (rc != 0 && (cv->proc != NULL || rc == PMR_ENOMEM)) {
			free(pr);
			free(top.v);
			*msg = buf;
			return rc;
		}
		if (rc != 0) {
			skipped++;
			continue;
		}
		memset(&one, 0, sizeof(one));
		pmr_calc_sum_add(&one, &cp);
		pmr_calc_sum_add(&sum, &cp);
		if (cv->proc != NULL && !cv->top)
			pmr_calc_report_list(f, &cp, pmr_images_get(
			    pmr_prof_images(p), cp.img)->path, cv->tsv);
		else if (!cv->top && !cv->tsv) {
			double st = one.st[1] + one.st[2] + one.st[3];
			double dy = one.dynpos + one.unexpl + one.gain;
			unsigned c, best = PMR_CALC_NCAUSE;

			for (c = 0; c < PMR_CALC_NCAUSE; c++)
				if (one.hi[c] > 0 && (best == PMR_CALC_NCAUSE ||
				    one.hi[c] > one.hi[best]))
					best = c;
			fprintf(f, "%-32.32s %10.0f %7.2f %7.2f %6.1f%% "
			    "%6.1f%% %s\n", cp.name, one.samples, one.insns ?
			    one.best / one.insns : 0, one.insns ?
			    one.actual / one.insns : 0, one.actual ? 100 * st /
			    one.actual : 0, one.actual ? 100 * dy / one.actual :
			    0, best < PMR_CALC_NCAUSE ?
			    pmr_calc_cause_name[best] : "-");
		}
		if (cv->top && pmr_calc_top_add(&top, &cp) != 0) {
			pmr_calc_proc_free(&cp);
			free(pr);
			free(top.v);
			*msg = "out of memory";
			return PMR_ENOMEM;
		}
		pmr_calc_proc_free(&cp);
	}
	if (cv->score) {
		rc = calc_score(f, p, pr, np, 0, nrun > 1 ? "run 1" : "1 run",
		    1, cv->tsv, cv->hist, msg);
		if (rc == 0 && nrun > 1) {
			snprintf(buf, sizeof(buf), "%zu runs", nrun);
			rc = calc_score(f, p, pr, np, -1, buf, 0, cv->tsv,
			    cv->hist, msg);
		}
		free(pr);
		return rc;
	}
	if (cv->top)
		pmr_calc_report_top(f, &top, cv->top, cv->tsv);
	else if (!cv->tsv || cv->whatcg) {
		if (cv->whatcg && !cv->tsv)
			fputc('\n', f);
		snprintf(buf, sizeof(buf), "%s%s", cv->proc != NULL ?
		    "summary of " : "all procedures with samples", cv->proc !=
		    NULL ? cv->proc : "");
		pmr_calc_report_sum(f, buf, &sum, cv->tsv);
	}
	skipped_note(f, cv->tsv, skipped);
	free(pr);
	free(top.v);
	return 0;
}

/*
 * pmprof score, text: on in-order runs with CYCLES samples and TRUTH, the
 * accuracy of DCPI's stall analysis as well (calc --whatcg --score).
 */
static void
calc_in_score(FILE *f, struct pmr_prof *p)
{
	struct calcview cv;
	struct pmr_sim_config cfg;
	struct pmr_calc_opts o;
	const char *msg;

	memset(&cv, 0, sizeof(cv));
	cv.whatcg = cv.score = 1;
	if (calc_setup(p, -1, &cfg, &o, &msg) != 0 || o.ev_ret < 0)
		return;
	fprintf(f, "\nDCPI's stall analysis (pmprof calc --whatcg --score):\n");
	if (calc(f, p, &cv, &msg) != 0)
		fprintf(f, "%s\n", msg);
}


/* Reads epochs (all when n is 0) of the database at path, one run each. */
static void
read_db(struct pmr_prof *p, const char *path, const char *const *epochs,
    size_t n)
{
	struct pmr_profdb *db;
	char err[512];
	size_t i;
	int rc;

	if (pmr_profdb_open(path, PMR_PROFDB_RDONLY, &db, err,
	    sizeof(err)) != 0)
		die("%s", err);	/* the database's messages name it */
	for (i = 0; i < (n ? n : 1); i++)
		if ((rc = pmr_prof_db_read(p, db, n ? epochs[i] : NULL)) !=
		    0)
			die("%s%s%s", rc == PMR_ENOMEM || rc == PMR_ECORRUPT ?
			    path : "", rc == PMR_ENOMEM || rc == PMR_ECORRUPT ?
			    ": " : "", rc == PMR_ENOMEM ? "out of memory" :
			    rc == PMR_ECORRUPT ? "an offset beyond any image "
			    "(corrupt)" : pmr_profdb_errmsg(db));
	pmr_profdb_close(db);
	if (pmr_prof_nrun(p) == 0)
		die("'%s': no samples in the database", path);
}

/* pmprof db DB add|epochs ... */
static int
db_verb(int argc, char **argv, const char *sysroot, const char *epoch,
    size_t nepoch, int argc0, char **argv0)
{
	struct pmr_profdb *db;
	struct pmr_prof *p;
	char err[512], name[32], *cmd;
	size_t i, len = 0;
	int rc;

	if (argc < 2)
		pmr_cli_misuse("db: a database and an action (add, epochs) "
		    "are needed");
	if (strcmp(argv[1], "epochs") == 0) {
		char **names;
		size_t n;

		if (argc != 2 || nepoch > 0)
			pmr_cli_misuse("db epochs takes no files or --epoch");
		if (pmr_profdb_open(argv[0], PMR_PROFDB_RDONLY, &db, err,
		    sizeof(err)) != 0)
			die("%s", err);
		if (pmr_profdb_epochs(db, &names, &n) != 0)
			die("%s", pmr_profdb_errmsg(db));
		for (i = 0; i < n; i++)
			printf("%s\n", names[i]);
		pmr_profdb_names_free(names, n);
		pmr_profdb_close(db);
		pmr_cli_exit(0);
	}
	if (strcmp(argv[1], "add") != 0)
		pmr_cli_bad("db", argv[1], "not an action (add, epochs)");
	if (nepoch > 1)
		pmr_cli_misuse("db add: one --epoch");
	if (epoch == NULL) {	/* DCPI's epoch names: UTC start times */
		time_t t = time(NULL);
		struct tm tm;

		strftime(name, sizeof(name), "%Y%m%d%H%M",
		    gmtime_r(&t, &tm));
		epoch = name;
	}
	if ((p = pmr_prof_new(sysroot)) == NULL)
		die("out of memory");
	/* every stream read whole before the database is touched: a bad
	 * one leaves it as it was */
	read_runs(p, argc - 2, argv + 2);
	if (pmr_prof_nsamples(p) == 0)
		die("no SAMPLE or PAIR records in the input (pmsim "
		    "--profileme or --sampler)");
	for (i = 0; i < (size_t)argc0; i++)
		len += strlen(argv0[i]) + 1;
	if ((cmd = calloc(len + 1, 1)) == NULL)
		die("out of memory");
	for (i = 0; i < (size_t)argc0; i++) {
		strcat(cmd, argv0[i]);
		if (i + 1 < (size_t)argc0)
			strcat(cmd, " ");
	}
	if (pmr_profdb_open(argv[0], PMR_PROFDB_CREATE, &db, err,
	    sizeof(err)) != 0)
		die("%s", err);
	if ((rc = pmr_prof_db_add(p, db, epoch, cmd,
	    pmr_prof_nrun(p) ? pmr_prof_runinfo(p, 0)->seed : 0)) != 0)
		die("%s%s", rc == PMR_ENOMEM ? argv[0] : "", rc == PMR_ENOMEM ?
		    ": out of memory" : pmr_profdb_errmsg(db));
	pmr_profdb_close(db);
	if (!com.quiet && com.verbose)
		fprintf(stderr, "pmprof: %" PRIu64 " samples added to '%s' "
		    "epoch %s\n", pmr_prof_nsamples(p), argv[0], epoch);
	free(cmd);
	pmr_prof_free(p);
	pmr_cli_exit(0);
}

/* pmprof import [file]: perf script text to a stream. */
static int
import(int argc, char **argv, int kind, int argc0, char **argv0)
{
	static const enum pmr_prof_import_kind kinds[] = { PMR_IMPORT_AUTO,
		PMR_IMPORT_IBS, PMR_IMPORT_SPE };
	struct pmr_prof_import_stats st;
	struct pmr_writer *w;
	const char *name = argc > 0 ? argv[0] : "-";
	char err[512], eb[512];
	FILE *in = stdin;
	int e;

	if (argc > 1)
		pmr_cli_misuse("import reads one file");
	if (pmr_common_tty_refused(&com))
		die("binary output to a terminal (use -o or --force)");
	if (strcmp(name, "-") != 0 && (in = fopen(name, "r")) == NULL)
		die("cannot open '%s': %m", name);
	if ((w = pmr_common_writer(&com, "pmprof", argc0, argv0, &e)) ==
	    NULL)
		die("%s: %s", pmr_outname(com.output), pmr_strerror(e));
	memset(&st, 0, sizeof(st));
	if ((e = pmr_prof_import_perf(in, name, kinds[kind], w, &st, err,
	    sizeof(err))) != 0) {
		pmr_writer_abort(w);
		die("%s", err[0] ? err : pmr_strerror(e));
	}
	if (pmr_writer_close(w, eb, sizeof(eb)) != 0)
		die("%s: %s", pmr_outname(com.output), eb);
	if (in != stdin)
		fclose(in);
	if (com.verbose)
		fprintf(stderr, "pmprof: %" PRIu64 " samples (%" PRIu64
		    " loads, %" PRIu64 " stores) from %" PRIu64 " lines, %"
		    PRIu64 " images (%" PRIu64 " executable mappings read)\n",
		    st.samples, st.loads, st.stores, st.lines, st.dso, st.maps);
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "alpha", required_argument, NULL, O_ALPHA },
		{ "by", required_argument, NULL, O_BY },
		{ "db", required_argument, NULL, O_DB },
		{ "epoch", required_argument, NULL, O_EPOCH },
		{ "kind", required_argument, NULL, O_KIND },
		{ "score", no_argument, NULL, O_SCORE },
		{ "histogram", no_argument, NULL, O_HISTOGRAM },
		{ "top-stalls", required_argument, NULL, O_TOP_STALLS },
		{ "whatcg", no_argument, NULL, O_WHATCG },
		{ "detail", no_argument, NULL, O_DETAIL },
		{ "event", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "sysroot", required_argument, NULL, O_SYSROOT },
		{ "top", required_argument, NULL, 'n' },
		{ "type", required_argument, NULL, 't' },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const char *const fmt_names[] = { "text", "tsv", "json",
		NULL };
	static const char *const by_names[] = { "image", "proc", "block",
		"insn", NULL };
	static const char *const type_names[] = { "callgrind", "folded",
		"pprof", NULL };
	static const char *const kind_names[] = { "auto", "ibs", "spe",
		NULL };
	const char *dbpath = NULL, *epochs[MAXEPOCH];
	size_t nepoch = 0;
	int kind = 0;
	struct pmr_prof_view v;
	struct calcview cv;
	struct pmr_textout out;
	struct pmr_prof *p;
	const char *events = NULL, *sysroot = NULL, *proc = NULL, *msg;
	enum verb verb;
	int ch, type = -1, rc = 0, argc0 = argc;
	char **argv0 = argv;
	long *ev;

	pmr_cli_init("pmprof", synopsis, help);
	pmr_common_init(&com);
	memset(&v, 0, sizeof(v));
	memset(&cv, 0, sizeof(cv));
	v.alpha = 0.05;
	v.by = PMR_PROF_BY_PROC;
	if (argc < 2)
		pmr_cli_misuse("a verb is needed");
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		pmr_cli_help();
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)
		pmr_cli_version();
	verb = (enum verb)pmr_cli_pick("verb", argv[1], verbs);
	argc--;
	argv++;
	while ((ch = getopt_long(argc, argv, "e:f:n:t:" PMR_COMMON_SHORTOPTS,
	    longopts, NULL)) != -1)
		switch (ch) {
		case 'e':
			events = optarg;
			break;
		case 'f':
			v.fmt = (enum pmr_table_fmt)pmr_cli_pick("--format",
			    optarg, fmt_names);
			break;
		case 'n':
			v.top = (size_t)pmr_cli_num("--top", optarg, 1,
			    1LL << 40);
			break;
		case 't':
			type = pmr_cli_pick("--type", optarg, type_names);
			break;
		case O_ALPHA: {
			char *end;

			v.alpha = strtod(optarg, &end);
			if (*end != '\0' || !(v.alpha > 0 && v.alpha < 1))
				pmr_cli_bad("--alpha", optarg, "not in (0, 1)");
			break;
		}
		case O_BY:
			v.by = (enum pmr_prof_by)pmr_cli_pick("--by", optarg,
			    by_names);
			break;
		case O_DB:
			dbpath = optarg;
			break;
		case O_DETAIL:
			v.detail = 1;
			break;
		case O_EPOCH:
			if (*optarg == '\0' || nepoch == MAXEPOCH)
				pmr_cli_bad("--epoch", optarg, *optarg ?
				    "one too many" : "empty");
			epochs[nepoch++] = optarg;
			break;
		case O_KIND:
			kind = pmr_cli_pick("--kind", optarg, kind_names);
			break;
		case O_SCORE:
			cv.score = 1;
			break;
		case O_HISTOGRAM:
			cv.hist = cv.score = 1;
			break;
		case O_TOP_STALLS:
			cv.top = (size_t)pmr_cli_num("--top-stalls", optarg, 1,
			    1LL << 40);
			break;
		case O_WHATCG:
			cv.whatcg = 1;
			break;
		case O_SYSROOT:
			sysroot = optarg;
			break;
		default:
			pmr_cli_common(&com, ch, optarg);
		}
	argc -= optind;
	argv += optind;
	if (verb == V_IMPORT)
		return import(argc, argv, kind, argc0, argv0);
	if (verb == V_DB)
		return db_verb(argc, argv, sysroot, nepoch ? epochs[0] : NULL,
		    nepoch, argc0, argv0);
	if ((cv.score || cv.top || cv.whatcg) && verb != V_CALC)
		pmr_cli_misuse("--score, --histogram, --top-stalls and "
		    "--whatcg are for calc");
	if (verb == V_CALC && v.fmt == PMR_TABLE_JSON)
		pmr_cli_misuse("calc: -f text or tsv");
	if (verb == V_CALC && !cv.whatcg) {
		if (argc < 1)
			pmr_cli_misuse("calc: a procedure name, or --whatcg, "
			    "is needed");
		cv.proc = argv[0];
		argc--;
		argv++;
	}
	if (verb == V_LIST) {
		if (argc < 1)
			pmr_cli_misuse("list: a procedure name is needed");
		proc = argv[0];
		argc--;
		argv++;
	}
	if (dbpath != NULL && argc > 0)
		pmr_cli_misuse("--db reads the database: no files as well");
	if (dbpath == NULL && nepoch > 0)
		pmr_cli_misuse("--epoch is for db add, or with --db");
	if (verb == V_STATS && dbpath == NULL && argc < 2)
		pmr_cli_misuse("stats: two runs or more are needed");
	if (verb == V_DIFF && dbpath == NULL && argc != 2)
		pmr_cli_misuse("diff: two runs are needed (A B)");
	if (verb == V_EXPORT && type < 0)
		pmr_cli_misuse("export: -t callgrind, pprof or folded is "
		    "needed");
	if (verb != V_EXPORT && type >= 0)
		pmr_cli_misuse("-t is for export");
	if ((p = pmr_prof_new(sysroot)) == NULL)
		die("out of memory");
	if (dbpath != NULL)
		read_db(p, dbpath, epochs, nepoch);
	else
		read_runs(p, argc, argv);
	if (verb == V_CALC && events != NULL)
		pmr_cli_misuse("calc: -e does not apply (it reads the CYCLES "
		    "samples)");
	ev = verb == V_CALC ? NULL : pick_events(p, events, &v.nev);
	v.ev = ev;
	if (verb == V_EXPORT && type == 2 && pmr_common_tty_refused(&com))
		die("binary output to a terminal (use -o or --force)");
	if (pmr_textout_open(&out, com.output) != 0)
		die("%s: %m", pmr_outname(com.output));
	msg = NULL;
	switch (verb) {
	case V_IMAGES:
		rc = pmr_prof_report_flat(out.f, p, &v, PMR_PROF_BY_IMAGE);
		break;
	case V_PROCS:
		rc = pmr_prof_report_flat(out.f, p, &v, PMR_PROF_BY_PROC);
		break;
	case V_LIST:
		rc = pmr_prof_report_list(out.f, p, &v, proc, &msg);
		break;
	case V_SCORE:
		rc = pmr_prof_report_score(out.f, p, &v, &msg);
		if (rc == 0 && v.fmt == PMR_TABLE_TEXT)
			calc_in_score(out.f, p);
		break;
	case V_STATS:
		rc = pmr_prof_report_stats(out.f, p, &v, &msg);
		break;
	case V_DIFF:
		rc = pmr_prof_report_diff(out.f, p, &v, &msg);
		break;
	case V_CALC:
		cv.tsv = v.fmt != PMR_TABLE_TEXT;
		rc = calc(out.f, p, &cv, &msg);
		break;
	case V_EXPORT:
		rc = type == 0 ? pmr_prof_export_callgrind(out.f, p, &v) :
		    type == 1 ? pmr_prof_export_folded(out.f, p, &v) :
		    pmr_prof_export_pprof(out.f, p, &v);
		break;
	default:
		break;
	}
	if (rc != 0) {
		(void)pmr_textout_close(&out, 0);
		die("%s", msg != NULL ? msg : pmr_strerror(rc));
	}
	if (pmr_textout_close(&out, 1) != 0)
		die("%s: %m", pmr_outname(com.output));
	free(ev);
	pmr_prof_free(p);
	pmr_cli_exit(0);
}
