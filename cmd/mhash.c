/*
 * mhash: the Multi-Hash hardware profiler (HPCA-9 2003), its exact interval
 * profile, the paper's error metric and heavy-hitter baselines at equal
 * bytes, over EVENT records, tuples derived from instruction traces,
 * "pc value" text lines or a synthetic stream.
 *
 * The models, the metric and the area accounting live in lib/mhash*.c; this
 * file parses options, reads events, feeds every configured profiler and
 * reports.  See mhash(1).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mhash/mhash.h"
#include "stream/pmr.h"
#include "util/cli.h"
#include "util/table.h"
#include "trace/trace.h"

#define MAXCFG 64

/* the report formats, in the order of enum pmr_table_fmt (-f pmr: the
 * fields as META values) */
enum fmt { F_TEXT, F_TSV, F_JSON, F_PMR };

enum {
	O_CU = PMR_OPT_PRIVATE, O_NO_CU, O_RESET, O_NO_RESET, O_RETAIN,
	O_NO_RETAIN, O_HASH, O_SBOX, O_VICTIM, O_ACC_INIT, O_RESET_OVF,
	O_BYTES, O_ACCOUNTING, O_AREA, O_STATS, O_EMPTY, O_PARTIAL, O_TEXT,
	O_HEX, O_SYNTH, O_DUMP, O_SWEEP, O_SUMMARY, O_TRACE, O_THEORY
};

#define K_ADDR 3	/* --kind=addr: (load pc, load address), traces only */

struct prof {
	struct pmr_mhash_cfg c;
	struct pmr_mhash *m;
	char name[64];
	struct pmr_mhash_enet agg;
};

struct run {
	struct pmr_common com;
	struct pmr_mhash_cfg base;
	enum pmr_mhash_algo algos[8];
	size_t nalgo;
	const char *sweep;
	int text, hex, kind;	/* kind: 0 all, else PMR_EV_* or K_ADDR */
	int trace;		/* input is an instruction trace */
	int exact, eval, area, theory, stats, summary_only;
	int empty_zero, with_partial;
	int dump;
	int synth;
	struct pmr_mhash_synth syn;
	enum fmt fmt;
	const char *input;	/* for the header */

	struct prof *p;
	size_t np;
	struct pmr_mhash *ex;	/* exact reference for --eval */
	int blocks;		/* print per-interval blocks */
	struct pmr_mhash_row *rows;
	size_t rowcap;
	int seen[16];		/* TSV headers printed, by line kind */
	struct pmr_writer *w;	/* --dump-events */
	struct pmr_progress progress;	/* on a terminal */
	struct pmr_writer *pw;	/* -f pmr */
	unsigned cur_kind;	/* EVENT kind of the tuple being fed */
	struct pmr_mhash_cand *prevx;	/* exact candidates of the previous
					 * interval, for the churn */
	size_t nprevx, prevcap;
	uint64_t events;
};

static const char synopsis[] =
    "usage: mhash [-Eeqv] [-A entries] [-a algo] [-c bits] [-f format] "
    "[-H counters]\n"
    "             [-k kind] [-L events] [-n tables] [-o file] "
    "[-p preset] [-t percent]\n"
    "             [--area] [--sweep=name] [--text | --trace] "
    "[file ...]\n";

static void
help(void)
{
	printf("usage: mhash [options] [file ...]\n"
	    "Model the Multi-Hash interval profiler over (pc, value) events "
	    "read from pmr\nstreams (EVENT records), instruction traces, "
	    "text lines \"pc value\" or a\nsynthetic stream; print each "
	    "interval's hot tuples, the exact profile, the\npaper's error E "
	    "and the area, beside software baselines at equal bytes.\n\n"
	    "Input:\n"
	    "  -k, --kind=KIND      EVENT kind: value, edge or all; with "
	    "--trace also addr\n"
	    "                       [value]\n"
	    "      --text           read text lines \"pc value [idx ...]\" "
	    "[pmr records]\n"
	    "      --trace          read instruction traces (pmr, ChampSim, "
	    "drmemtrace) and\n"
	    "                       derive the tuples without simulation "
	    "[EVENT records]\n"
	    "      --hex            unprefixed text numbers are hex "
	    "[decimal; 0x is hex]\n"
	    "      --synth=SPEC     generate a synthetic stream instead: "
	    "n=N,hot=N,share=PCT,\n"
	    "                       noise=N,phase=N,seed=N "
	    "[n=1M,hot=40,share=60,noise=4000]\n"
	    "      --dump-events    write the input events as EVENT records "
	    "and stop\n\n"
	    "Model (paper names in parentheses):\n"
	    "  -p, --preset=NAME    paper-mh-10k, paper-mh-1m, paper-bsh-10k, "
	    "paper-bsh-1m\n"
	    "                       (aliases hpca03-1pct, hpca03-01pct, "
	    "hpca03-bsh-1pct,\n"
	    "                       hpca03-bsh-01pct); later options override "
	    "[paper-mh-10k]\n"
	    "  -L, --interval=N     interval length in events (L) [10000]\n"
	    "  -t, --threshold=PCT  candidate threshold θ in percent; "
	    "T = ceil(θ·L) [1]\n"
	    "  -H, --entries=N      total hash counters (H) [2048]\n"
	    "  -n, --tables=N       hash tables (N), each H/N counters [4]\n"
	    "  -c, --counter-bits=N counter width, saturating [24]\n"
	    "      --cu, --no-cu    conservative update (C1/C0) [--cu]\n"
	    "      --reset, --no-reset  immediate reset on promotion (R1/R0) "
	    "[--no-reset]\n"
	    "      --retain, --no-retain  retaining at interval end (P1/P0) "
	    "[--retain]\n"
	    "  -A, --acc=N          accumulator entries (A) [floor(100/PCT)]\n"
	    "      --hash=FN        paper, tab, given (indices in extra text "
	    "columns) or\n"
	    "                       exact (ideal, no aliasing) [paper]\n"
	    "      --sbox=KIND      perm or random S-boxes [perm]\n"
	    "      --victim=POLICY  replaceable entry to evict: lowest, fifo, "
	    "lru, random\n"
	    "                       [lowest]\n"
	    "      --acc-init=HOW   count of a promoted entry: est, threshold, "
	    "one [est]\n"
	    "      --reset-on-overflow  reset counters when the accumulator "
	    "is full [off]\n"
	    "  -a, --algo=LIST      comma-separated: mh, ss (Space-Saving), "
	    "cmcu (Count-Min\n"
	    "                       with CU and a candidate store), mg "
	    "(Misra-Gries), exact\n"
	    "                       [mh]\n"
	    "      --bytes=N        memory budget of the baselines [the mh "
	    "area]\n"
	    "      --accounting=HOW paper (10 B per entry) or exact (64-bit "
	    "pc and value)\n"
	    "                       [paper]\n"
	    "      --sweep=NAME     run the configurations of a figure: fig7, "
	    "fig10, fig11,\n"
	    "                       fig12, fig14, baselines [none]\n\n"
	    "Output:\n"
	    "  -e, --exact          print the exact interval profile [off]\n"
	    "  -E, --eval           compare with the exact profile: error E "
	    "and its parts\n"
	    "                       [off]\n"
	    "      --empty=HOW      intervals with no candidates in E_net: "
	    "skip or zero\n"
	    "                       [skip]\n"
	    "      --partial        include a final partial interval in E_net "
	    "[off]\n"
	    "      --area           print the area of each configuration and "
	    "exit\n"
	    "      --theory         print the paper's false-positive bound "
	    "for N = 1..16\n"
	    "                       and exit\n"
	    "      --stats          per-interval counters (S lines) [off]\n"
	    "      --summary        only the summary table [on with several "
	    "configurations]\n"
	    "  -f, --format=FMT     text, tsv, json, or pmr (HOT and META "
	    "records) [text]\n\n%s",
	    pmr_common_help);
}

static const char *const hash_names[] = { "paper", "tab", "given", "exact",
	NULL };
static const char *const sbox_names[] = { "perm", "random", NULL };
static const char *const victim_names[] = { "lowest", "fifo", "lru",
	"random", NULL };
static const char *const init_names[] = { "est", "threshold", "one", NULL };
static const char *const fmt_names[] = { "text", "tsv", "json", "pmr",
	NULL };
static const char *const acct_names[] = { "paper", "exact", NULL };
static const char *const empty_names[] = { "skip", "zero", NULL };
static const char *const kind_names[] = { "all", "value", "edge", "addr",
	NULL };

/* --- output ------------------------------------------------------------- */

enum { K_CONFIG, K_I, K_C, K_E, K_S, K_SUM, K_AREA, K_THEORY, K_N };
static const char *const knames[] = { "config", "I", "C", "E", "S",
	"summary", "area", "theory" };

/* The values of a report line (util/table.h), by type. */
#define FU(n, v, p) PMR_TVU(n, v, p)
#define FX(n, v) PMR_TVX(n, v)
#define FS(n, v, p) PMR_TVS(n, v, p)
#define FP(n, v, p) PMR_TVP(n, v, p)
#define FD(n, v) PMR_TVD(n, v)

/* Prints one output line of kind k in format fmt on out. */
static void
emit_to(FILE *out, struct run *r, enum fmt fmt, int k,
    const struct pmr_tval *f, size_t n)
{
	char lead[64];

	snprintf(lead, sizeof(lead), "# mhash %s", PMTOOLS_VERSION);
	pmr_table_line(out, (enum pmr_table_fmt)fmt, knames[k],
	    k == K_CONFIG ? lead : NULL, &r->seen[k], f, n);
}

/*
 * -f pmr: a candidate becomes a HOT record, anything else a META record
 * "mhash.KIND" holding the line in its text form.
 */
static void
emit_pmr(struct run *r, int k, const struct pmr_tval *f, size_t n)
{
	struct pmr_meta meta;
	unsigned char *b;
	char key[32], *text = NULL;
	size_t len = 0;
	FILE *m;

	if (k == K_C) {
		/* interval, pc, value, count (fh), exact count (fp) or 0,
		 * class (enum pmr_mhash_class) or 255 without --eval. */
		struct pmr_hot h = { f[0].u, f[1].u, f[2].u, f[3].u,
			n > 4 ? f[4].u : 0, n > 5 ? (uint8_t)f[5].u : 255 };

		if ((b = pmr_write_reserve(r->pw, PMR_REC_HOT,
		    PMR_HOT_SIZE)) == NULL)
			errx(1, "%s: %s", pmr_outname(r->com.output),
			    pmr_writer_errmsg(r->pw));
		pmr_hot_put(b, &h);
		return;
	}
	if ((m = open_memstream(&text, &len)) == NULL)
		err(1, NULL);
	emit_to(m, r, F_PMR, k, f, n);
	if (fclose(m) != 0)
		err(1, NULL);
	if (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	/* Drop the separator before the first field. */
	meta.value.p = (const unsigned char *)text + (len > 0 &&
	    text[0] == ' ');
	meta.value.n = (uint32_t)(len - (len > 0 && text[0] == ' '));
	snprintf(key, sizeof(key), "mhash.%s", knames[k]);
	meta.key.p = (const unsigned char *)key;
	meta.key.n = (uint32_t)strlen(key);
	if (pmr_write(r->pw, PMR_REC_META, &meta) != 0)
		errx(1, "%s: %s", pmr_outname(r->com.output),
		    pmr_writer_errmsg(r->pw));
	free(text);
}

/* Prints one output line of kind k in the run's format. */
static void
emit(struct run *r, int k, const struct pmr_tval *f, size_t n)
{
	if (r->fmt == F_PMR)
		emit_pmr(r, k, f, n);
	else
		emit_to(stdout, r, r->fmt, k, f, n);
}

/* Formats θ (parts per billion) as a percentage without trailing zeros. */
static void
pct_str(uint64_t ppb, char *buf, size_t len)
{
	uint64_t ip = ppb / (PMR_MHASH_PPB / 100);
	uint64_t fp = ppb % (PMR_MHASH_PPB / 100);
	int nd = 7;

	while (nd > 0 && fp % 10 == 0) {
		fp /= 10;
		nd--;
	}
	if (nd == 0)
		snprintf(buf, len, "%" PRIu64 "%%", ip);
	else
		snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%%", ip, nd, fp);
}

static void
print_config(struct run *r, const struct prof *p)
{
	const struct pmr_mhash_cfg *c = &p->c;
	char theta[32];
	struct pmr_tval f[] = {
		FS("name", p->name, 0),
		FS("algo", pmr_mhash_algo_name(c->algo), 0),
		FU("N", c->tables, 0), FU("H", c->entries, 0),
		FU("S", c->size, 0), FU("cbits", c->cbits, 0),
		FU("cu", (uint64_t)c->cu, 0), FU("reset", (uint64_t)c->reset, 0),
		FU("retain", (uint64_t)c->retain, 0), FU("A", c->acc, 0),
		FU("k", c->k, 0), FU("L", c->interval, 0),
		FS("theta", theta, 0), FU("T", c->thresh, 0),
		FS("hash", hash_names[c->hash], 0),
		FS("sbox", sbox_names[c->sbox_random], 0),
		FS("victim", victim_names[c->victim], 0),
		FS("acc_init", init_names[c->acc_init], 0),
		FU("reset_on_overflow", (uint64_t)c->reset_on_overflow, 0),
		FU("budget", c->budget, 0),
		FS("accounting", acct_names[c->exact_bytes], 0),
		FU("seed", c->seed, 0),
		FS("kind", r->text || r->synth ? "-" : kind_names[r->kind], 0),
		FS("source", r->synth ? "synth" : r->text ? "text" :
		    r->trace ? "trace" : "events", 0),
		FS("input", r->input, 0),
	};

	pct_str(c->theta_ppb, theta, sizeof(theta));
	emit(r, K_CONFIG, f, sizeof(f) / sizeof(f[0]));
}

static void
print_area(struct run *r)
{
	struct pmr_mhash_area a;
	size_t i;

	if (r->fmt == F_TEXT)
		printf("%-22s %10s %6s %10s %11s %10s %11s %10s\n", "# config",
		    "hash_B", "A", "acc_paper", "total_paper", "acc_exact",
		    "total_exact", "algo_B");
	for (i = 0; i < r->np; i++) {
		pmr_mhash_area(&r->p[i].c, &a);
		if (r->fmt == F_TEXT) {
			printf("%-22s %10" PRIu64 " %6u %10" PRIu64 " %11"
			    PRIu64 " %10.2f %11.2f %10.2f\n", r->p[i].name,
			    a.hash_bytes, r->p[i].c.acc, a.paper_acc_bytes,
			    a.paper_total, a.acc_bytes, a.total, a.algo_bytes);
			continue;
		} else {
			struct pmr_tval f[] = {
				FS("config", r->p[i].name, 0),
				FU("hash_bytes", a.hash_bytes, 0),
				FU("acc", r->p[i].c.acc, 0),
				FU("acc_entry_bits", a.acc_entry_bits, 0),
				FU("acc_paper", a.paper_acc_bytes, 0),
				FU("total_paper", a.paper_total, 0),
				FD("acc_exact", a.acc_bytes),
				FD("total_exact", a.total),
				FD("algo_bytes", a.algo_bytes),
			};

			emit(r, K_AREA, f, sizeof(f) / sizeof(f[0]));
		}
	}
}

/* --theory: the paper's false-positive bound (paper §6.2) for N = 1..16 tables
 * sharing the H counters of the configuration. */
static void
print_theory(struct run *r)
{
	const struct pmr_mhash_cfg *c = &r->base;
	double t = (double)c->theta_ppb / (PMR_MHASH_PPB / 100);
	unsigned n;

	if (r->fmt == F_TEXT)
		printf("# p = (100 N / (t Z))^N, Z=%u t=%g%%\n# %4s %8s %12s\n",
		    c->entries, t, "N", "Z/N", "p");
	for (n = 1; n <= 16; n++) {
		double p = pmr_mhash_fp_bound(n, c->entries, t);

		if (r->fmt == F_TEXT) {
			printf("  %4u %8u %12.4g\n", n, c->entries / n, p);
			continue;
		} else {
			struct pmr_tval f[] = {
				FU("N", n, 0), FU("Z", c->entries, 0),
				FD("t", t), FD("p", p),
			};

			emit(r, K_THEORY, f, 4);
		}
	}
}

/* Prints the block of one closed interval of profiler p. */
static void
print_block(struct run *r, struct prof *p, const struct pmr_mhash_cand *c,
    size_t n, const struct pmr_mhash_err *e, size_t nrows, int partial)
{
	uint64_t k = pmr_mhash_interval(p->m);
	size_t i;

	{
		struct pmr_tval f[] = {
			FU("interval", k, 1),
			FU("events", pmr_mhash_ievents(p->m), 0),
			FU("T", p->c.thresh, 0), FU("cand", n, 0),
			FU("partial", (uint64_t)partial, 0),
		};

		/* Text tags a partial interval with the bare word. */
		if (r->fmt == F_TEXT) {
			f[4].t = PMR_TV_STR;
			f[4].pos = 1;
			f[4].s = "partial";
		}
		emit(r, K_I, f, partial || r->fmt != F_TEXT ? 5 : 4);
	}
	if (e == NULL)
		for (i = 0; i < n; i++) {
			struct pmr_tval f[] = {
				FU("interval", k, 1), FX("pc", c[i].pc),
				FX("value", c[i].value),
				FU("count", c[i].count, 1),
			};

			emit(r, K_C, f, 4);
		}
	else {
		for (i = 0; i < nrows; i++) {
			const struct pmr_mhash_row *w = &r->rows[i];
			struct pmr_tval f[] = {
				FU("interval", k, 1), FX("pc", w->pc),
				FX("value", w->value), FU("fh", w->fh, 1),
				FU("fp", w->fp, 1),
				{ "class", PMR_TV_STR, 1, (uint64_t)w->cls, 0,
				    pmr_mhash_class_name(w->cls) },
			};

			emit(r, K_C, f, 6);
		}
		{
			struct pmr_tval f[] = {
				FU("interval", k, 1), FP("E", e->e, 1),
				FP("NP", e->e_np, 0), FP("NN", e->e_nn, 0),
				FP("FP", e->e_fp, 0), FP("FN", e->e_fn, 0),
				FU("U", e->n_union, 0),
				FU("exact", e->n_exact, 0),
				FU("nfp", e->n_fp, 0), FU("nfn", e->n_fn, 0),
			};

			emit(r, K_E, f, sizeof(f) / sizeof(f[0]));
		}
	}
	if (r->stats) {
		const struct pmr_mhash_stats *s = pmr_mhash_istats(p->m);
		uint32_t nrepl, used = pmr_mhash_acc_used(p->m, &nrepl);
		uint64_t distinct = r->ex != NULL ?
		    pmr_mhash_istats(r->ex)->distinct : s->distinct;
		size_t nx = 0;
		struct pmr_tval f[] = {
			FU("interval", k, 1), FU("hashed", s->hashed, 0),
			FU("shielded", s->shielded, 0),
			FU("promotions", s->promotions, 0),
			FU("overflow", s->overflow, 0),
			FU("evictions", s->evictions, 0),
			FU("evict_live", s->evict_live, 0),
			FU("evict_requal", s->evict_requal, 0),
			FU("requalified", s->requalified, 0),
			FU("saturations", s->saturations, 0),
			FU("resets", s->resets, 0),
			FU("tsum_min", s->tsum_min, 0),
			FU("tsum_max", s->tsum_max, 0),
			FU("acc_used", used, 0), FU("acc_repl", nrepl, 0),
			FU("distinct", distinct, 0),
			FU("exact_cand", nx, 0), FU("hw_cand", n, 0),
			FD("churn", 0),
		};
		const struct pmr_mhash_cand *xc;

		if (r->ex != NULL) {
			xc = pmr_mhash_result(r->ex, &nx);
			f[16].u = nx;
			f[18].d = pmr_mhash_churn(r->prevx, r->nprevx, xc, nx);
			/* Keep this interval's set for the next one. */
			if (nx > r->prevcap) {
				r->prevcap = 2 * nx;
				r->prevx = realloc(r->prevx,
				    r->prevcap * sizeof(*r->prevx));
				if (r->prevx == NULL)
					err(1, NULL);
			}
			if (nx > 0)	/* prevx is NULL until a set is kept */
				memcpy(r->prevx, xc, nx * sizeof(*xc));
			r->nprevx = nx;
		}

		emit(r, K_S, f, sizeof(f) / sizeof(f[0]));
	}
}

/* Handles the end of an interval for every profiler. */
static void
interval_end(struct run *r, int partial)
{
	const struct pmr_mhash_cand *c;
	struct pmr_mhash_err e;
	size_t i, n, nx, nrows = 0;

	for (i = 0; i < r->np; i++) {
		struct prof *p = &r->p[i];

		c = pmr_mhash_result(p->m, &n);
		if (r->eval) {
			(void)pmr_mhash_result(r->ex, &nx);
			if (n + nx > r->rowcap) {
				r->rowcap = 2 * (n + nx);
				r->rows = realloc(r->rows,
				    r->rowcap * sizeof(*r->rows));
				if (r->rows == NULL)
					err(1, NULL);
			}
			pmr_mhash_eval(r->ex, c, n, &e, r->rows, &nrows);
			pmr_mhash_enet_add(&p->agg, &e, partial);
		}
		if (r->blocks)
			print_block(r, p, c, n, r->eval ? &e : NULL,
			    nrows, partial);
	}
}

static void
print_summary(struct run *r)
{
	const struct pmr_mhash_stats *s;
	struct pmr_mhash_area a;
	double parts[4], en;
	size_t i;

	if (r->fmt == F_TEXT) {
		printf("# %-20s %9s", "config", "bytes");
		if (r->eval)
			printf(" %8s %7s %7s %7s %7s %8s %5s %5s", "E_net",
			    "NP", "NN", "FP", "FN", "max_E", "nfp", "nfn");
		printf(" %9s %9s %9s %9s\n", "intervals", "promote",
		    "overflow", "evict");
	}
	for (i = 0; i < r->np; i++) {
		struct prof *p = &r->p[i];

		s = pmr_mhash_stats(p->m);
		pmr_mhash_area(&p->c, &a);
		en = pmr_mhash_enet(&p->agg, parts);
		if (r->fmt == F_TEXT) {
			printf("# %-20s %9.0f", p->name, a.algo_bytes);
			if (r->eval)
				printf(" %7.3f%% %6.3f%% %6.3f%% %6.3f%% "
				    "%6.3f%% %7.2f%% %5" PRIu64 " %5" PRIu64,
				    100 * en, 100 * parts[0], 100 * parts[1],
				    100 * parts[2], 100 * parts[3],
				    100 * p->agg.max_e, p->agg.n_fp,
				    p->agg.n_fn);
			printf(" %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9"
			    PRIu64 "\n", r->eval ? p->agg.intervals :
			    pmr_mhash_interval(p->m) + 1, s->promotions,
			    s->overflow, s->evictions);
			continue;
		}
		{
			struct pmr_tval f[] = {
				FS("config", p->name, 0),
				FD("bytes", a.algo_bytes),
				FU("events", s->events, 0),
				FU("promotions", s->promotions, 0),
				FU("overflow", s->overflow, 0),
				FU("evictions", s->evictions, 0),
				FP("E_net", en, 0), FP("NP", parts[0], 0),
				FP("NN", parts[1], 0), FP("FP", parts[2], 0),
				FP("FN", parts[3], 0),
				FP("max_E", p->agg.max_e, 0),
				FU("intervals", p->agg.intervals, 0),
				FU("empty", p->agg.empty, 0),
				FU("partial", p->agg.partial, 0),
				FU("nfp", p->agg.n_fp, 0),
				FU("nfn", p->agg.n_fn, 0),
			};

			emit(r, K_SUM, f, r->eval ? 17 : 6);
		}
	}
}

/* --- input ---------------------------------------------------------------- */

/* --dump-events: writes one EVENT record. */
static void
dump_event(struct run *r, unsigned kind, uint64_t pc, uint64_t v)
{
	unsigned char *b = pmr_write_reserve(r->w, PMR_REC_EVENT,
	    PMR_EVENT_SIZE);

	if (b == NULL)
		errx(1, "%s: %s", pmr_outname(r->com.output),
		    pmr_writer_errmsg(r->w));
	pmr_event_put(b, kind, pc, v);
}

static inline void
feed(struct run *r, uint64_t pc, uint64_t v, const uint32_t *idx)
{
	size_t i;
	int done = 0;

	r->events++;
	if (r->w != NULL) {
		dump_event(r, r->cur_kind, pc, v);
		return;
	}
	if (idx == NULL)
		for (i = 0; i < r->np; i++)
			done = pmr_mhash_add(r->p[i].m, pc, v);
	else
		for (i = 0; i < r->np; i++)
			done = pmr_mhash_add_idx(r->p[i].m, pc, v, idx);
	if (r->ex != NULL)
		done = pmr_mhash_add(r->ex, pc, v);
	if (done)
		interval_end(r, 0);
}

/* Feeds n events to every profiler; all have the same L, so they close
 * their intervals after the same events. */
static void
feed_batch(struct run *r, const uint64_t *pc, const uint64_t *v, size_t n)
{
	size_t off = 0, k = 0, i;
	int closed = 0;

	while (off < n) {
		for (i = 0; i < r->np; i++)
			k = pmr_mhash_add_many(r->p[i].m, pc + off, v + off,
			    n - off, &closed);
		if (r->ex != NULL)
			k = pmr_mhash_add_many(r->ex, pc + off, v + off, n - off,
			    &closed);
		r->events += k;
		off += k;
		if (closed)
			interval_end(r, 0);
	}
}

/* Parses a text number: 0x-prefixed hex, else decimal (hex with --hex). */
static int
parse_num(const char *s, int hex, uint64_t *v)
{
	uint64_t x = 0, d;
	int base = hex ? 16 : 10, nd = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (; *s != '\0'; s++, nd++) {
		if (*s >= '0' && *s <= '9')
			d = (uint64_t)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (uint64_t)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (uint64_t)(*s - 'A' + 10);
		else
			return -1;
		if (x > (UINT64_MAX - d) / (uint64_t)base)
			return -1;
		x = x * (uint64_t)base + d;
	}
	if (nd == 0)
		return -1;
	*v = x;
	return 0;
}

/* Reads "pc value [idx ...]" lines.  Returns 0, or 1 after a message. */
static int
read_text(struct run *r, const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *line = NULL, *tok, *save;
	size_t cap = 0;
	ssize_t len;
	uint64_t lineno = 0, pc = 0, v = 0, x;
	uint32_t idx[PMR_MHASH_MAXTABLES];
	unsigned need = 2, nf;
	int given = r->np > 0 && r->p[0].c.hash == PMR_MHASH_HGIVEN &&
	    r->p[0].c.algo == PMR_MHASH_MH;

	if (f == NULL) {
		warn("cannot open '%s'", path);
		return 1;
	}
	if (given)
		need += r->p[0].c.tables;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (pmr_is_binary(line, (size_t)len))
			errx(1, "'%s', line %" PRIu64 ": not text (binary "
			    "data: a pmr stream or a trace is read without "
			    "--text)", pmr_display(path), lineno);
		if ((tok = strchr(line, '#')) != NULL)
			*tok = '\0';
		nf = 0;
		for (tok = strtok_r(line, " \t\r\n", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (nf >= 2 + PMR_MHASH_MAXTABLES)
				errx(1, "'%s', line %" PRIu64 ": too many "
				    "fields", pmr_display(path), lineno);
			if (parse_num(tok, r->hex, &x) != 0) {
				char q[64];

				errx(1, "'%s', line %" PRIu64 ": bad value "
				    "'%s'", pmr_display(path), lineno,
				    pmr_quote(q, sizeof(q), tok, strlen(tok)));
			}
			if (nf == 0)
				pc = x;
			else if (nf == 1)
				v = x;
			else if (!given)
				;	/* indices for --hash=given: ignored */
			else if (nf >= need)
				errx(1, "'%s', line %" PRIu64 ": too many "
				    "fields (expected %u)", pmr_display(path),
				    lineno, need);
			else if (x >= r->p[0].c.size)
				errx(1, "'%s', line %" PRIu64 ": index %"
				    PRIu64 " is not below the table size %u",
				    pmr_display(path), lineno, x,
				    r->p[0].c.size);
			else
				idx[nf - 2] = (uint32_t)x;
			nf++;
		}
		if (nf == 0)
			continue;
		if (nf < need)
			errx(1, "'%s', line %" PRIu64 ": expected %u fields, "
			    "got %u", pmr_display(path), lineno, need, nf);
		feed(r, pc, v, given ? idx : NULL);
	}
	if (ferror(f))
		err(1, "'%s'", pmr_display(path));
	free(line);
	if (f != stdin)
		fclose(f);
	return 0;
}

/* Reads the EVENT records of a pmr stream.  Returns 0, or 1 after a
 * message (unreadable file). */
static int
read_pmr(struct run *r, const char *path)
{
	struct pmr_reader *rd;
	struct pmr_rec rec;
	int e = 0, ret;

	if ((rd = pmr_reader_open(path, 0, &e)) == NULL) {
		warnx("cannot open '%s': %s", pmr_display(path),
		    pmr_strerror(e));
		return 1;
	}
	while ((ret = pmr_reader_next(rd, &rec)) > 0) {
		if (rec.type == PMR_REC_EVENT && rec.len < PMR_EVENT_SIZE)
			errx(1, "'%s': record %" PRIu64 ": EVENT payload of "
			    "%" PRIu32 " bytes, expected 17", pmr_display(path),
			    rec.index, rec.len);
		if (rec.type != PMR_REC_EVENT ||
		    (r->kind != 0 && rec.p[0] != r->kind)) {
			/* not ours: with -f pmr, passed through in order (the
			 * input's PROV chain, IMAGE, tool records) */
			if (r->pw != NULL && pmr_write_raw(r->pw, rec.type,
			    rec.p, rec.len) != 0)
				errx(1, "%s: %s", pmr_outname(r->com.output),
				    pmr_writer_errmsg(r->pw));
			continue;
		}
		r->cur_kind = rec.p[0];
		feed(r, pmr_event_pc(rec.p), pmr_event_value(rec.p), NULL);
	}
	if (ret < 0)
		errx(1, "'%s': %s", pmr_display(path), pmr_reader_errmsg(rd));
	pmr_reader_close(rd);
	return 0;
}

/*
 * Binary input runs the reader in its own thread, so that decompression
 * and record parsing overlap with the models: the reader fills batches of
 * events in a small ring and the main thread consumes them.  Errors in
 * the reader are reported by the main thread after the events before them.
 */
#define BATCH 4096
#define NBATCH 8

struct batch {
	size_t n;
	uint64_t pc[BATCH], v[BATCH];
};

struct feeder {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct batch *b;	/* NBATCH batches */
	uint64_t head, tail;	/* batches produced, consumed */
	int done, status;
	char msg[512];
	int kind, nfiles;
	char **files;
};

static void
feeder_put(struct feeder *f)
{
	pthread_mutex_lock(&f->mu);
	f->head++;
	pthread_cond_broadcast(&f->cv);
	while (f->head - f->tail == NBATCH)
		pthread_cond_wait(&f->cv, &f->mu);
	pthread_mutex_unlock(&f->mu);
}

static void *
feeder_run(void *arg)
{
	struct feeder *f = arg;
	struct pmr_reader *rd;
	struct pmr_rec rec;
	struct batch *b = &f->b[0];
	int i, e = 0, ret;

	b->n = 0;
	for (i = 0; i < (f->nfiles > 0 ? f->nfiles : 1) && f->msg[0] == '\0';
	    i++) {
		const char *path = f->nfiles > 0 ? f->files[i] : "-";

		if ((rd = pmr_reader_open(path, 0, &e)) == NULL) {
			warnx("cannot open '%s': %s", pmr_display(path),
			    pmr_strerror(e));
			f->status = 1;
			continue;
		}
		while ((ret = pmr_reader_next(rd, &rec)) > 0) {
			if (rec.type != PMR_REC_EVENT)
				continue;	/* not ours */
			if (rec.len < PMR_EVENT_SIZE) {
				snprintf(f->msg, sizeof(f->msg), "'%s': record "
				    "%" PRIu64 ": EVENT payload of %" PRIu32
				    " bytes, expected 17", pmr_display(path),
				    rec.index, rec.len);
				break;
			}
			if (f->kind != 0 && rec.p[0] != f->kind)
				continue;
			b->pc[b->n] = pmr_event_pc(rec.p);
			b->v[b->n] = pmr_event_value(rec.p);
			if (++b->n == BATCH) {
				feeder_put(f);
				b = &f->b[f->head % NBATCH];
				b->n = 0;
			}
		}
		if (ret < 0)
			snprintf(f->msg, sizeof(f->msg), "'%s': %s",
			    pmr_display(path), pmr_reader_errmsg(rd));
		pmr_reader_close(rd);
	}
	if (b->n > 0)
		feeder_put(f);
	pthread_mutex_lock(&f->mu);
	f->done = 1;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

/* Reads the EVENT records of every file through a reader thread.  Returns
 * 0, or 1 if a file could not be opened; exits on corrupt input. */
static int
read_pmr_all(struct run *r, int nfiles, char **files)
{
	struct feeder f;
	struct batch *b;
	pthread_t th;

	memset(&f, 0, sizeof(f));
	f.kind = r->kind;
	f.nfiles = nfiles;
	f.files = files;
	if ((f.b = malloc(NBATCH * sizeof(*f.b))) == NULL)
		err(1, NULL);
	pthread_mutex_init(&f.mu, NULL);
	pthread_cond_init(&f.cv, NULL);
	if ((errno = pthread_create(&th, NULL, feeder_run, &f)) != 0)
		err(1, "cannot start the reader thread");
	for (;;) {
		pthread_mutex_lock(&f.mu);
		while (f.head == f.tail && !f.done)
			pthread_cond_wait(&f.cv, &f.mu);
		if (f.head == f.tail) {
			pthread_mutex_unlock(&f.mu);
			break;
		}
		pthread_mutex_unlock(&f.mu);
		b = &f.b[f.tail % NBATCH];
		feed_batch(r, b->pc, b->v, b->n);
		pthread_mutex_lock(&f.mu);
		f.tail++;
		pthread_cond_broadcast(&f.cv);
		pthread_mutex_unlock(&f.mu);
	}
	pthread_join(th, NULL);
	free(f.b);
	if (f.msg[0] != '\0') {
		fflush(stdout);
		errx(1, "%s", f.msg);
	}
	return f.status;
}

/*
 * Derives the tuples from an instruction trace (pmr, ChampSim, drmemtrace)
 * without simulating it: a load with its loaded value (value), a control
 * transfer with the pc that followed it, taken or not (edge), or a load
 * with its first address (addr, for traces without values).  Returns 0, or
 * 1 if the trace could not be opened.
 */
static int
read_trace(struct run *r, const char *path)
{
	static uint64_t pc[BATCH], v[BATCH];
	struct pmr_trace *t;
	struct pmr_dinsn di;
	char msg[256];
	size_t n = 0;
	uint64_t loads = 0, tuples = 0;
	unsigned kind;
	int e = 0, ret, k = r->kind;

	msg[0] = '\0';
	if ((t = pmr_trace_open(path, PMR_TF_AUTO, &e, msg, sizeof(msg))) ==
	    NULL) {
		/* the trace library's messages name the file */
		if (msg[0] != '\0')
			warnx("%s", msg);
		else
			warnx("cannot open '%s': %s", pmr_display(path),
			    pmr_strerror(e));
		return 1;
	}
	while ((ret = pmr_trace_next(t, &di)) > 0) {
		loads += di.nload > 0;
		if ((k == 0 || k == PMR_EV_VALUE) && di.nload > 0 &&
		    (di.flags & PMR_DI_VALUE)) {
			pc[n] = di.pc;
			v[n++] = di.value;
			kind = PMR_EV_VALUE;
		} else if ((k == 0 || k == PMR_EV_EDGE) &&
		    pmr_insn_class_is_branch(di.si->cls)) {
			pc[n] = di.pc;
			v[n++] = di.next_pc;
			kind = PMR_EV_EDGE;
		} else if (k == K_ADDR && di.nload > 0) {
			pc[n] = di.pc;
			v[n++] = di.addr[0];
			kind = PMR_EV_VALUE;	/* addresses stand in */
		} else
			continue;
		if (r->w != NULL) {
			dump_event(r, kind, pc[0], v[0]);
			r->events++;
			tuples++;
			n = 0;
			continue;
		}
		if (n == BATCH) {
			feed_batch(r, pc, v, n);
			tuples += n;
			n = 0;
		}
	}
	feed_batch(r, pc, v, n);
	tuples += n;
	if (ret < 0)
		errx(1, "%s", pmr_trace_errmsg(t));
	pmr_trace_close(t);
	if (k == PMR_EV_VALUE && tuples == 0 && loads > 0 && !r->com.quiet)
		warnx("'%s': %" PRIu64 " loads but no loaded values; "
		    "try --kind=addr", pmr_display(path), loads);
	return 0;
}

/* --- setup ---------------------------------------------------------------- */

/* Opens the output stream of --dump-events and -f pmr.  Exits on error. */
static struct pmr_writer *
open_writer(struct run *r, int argc, char **argv)
{
	struct pmr_writer *w;
	int e = 0;

	if (pmr_common_tty_refused(&r->com))
		errx(1, "refusing to write a binary stream to a terminal "
		    "(use -o file or --force)");
	if ((w = pmr_common_writer(&r->com, "mhash", argc, argv, &e)) == NULL)
		errx(1, "cannot create '%s': %s", pmr_display(r->com.output),
		    pmr_strerror(e));
	return w;
}

static void
add_prof(struct run *r, const struct pmr_mhash_cfg *c)
{
	struct prof *p;
	char msg[160];

	if (r->np == MAXCFG)
		errx(2, "too many configurations");
	p = &r->p[r->np];
	memset(p, 0, sizeof(*p));
	p->c = *c;
	if (pmr_mhash_cfg_finish(&p->c, msg, sizeof(msg)) != 0) {
		warnx("%s", msg);
		pmr_cli_usage();
	}
	pmr_mhash_cfg_name(&p->c, p->name, sizeof(p->name));
	p->agg.empty_zero = r->empty_zero;
	p->agg.with_partial = r->with_partial;
	r->np++;
}

static void
parse_algos(struct run *r, const char *arg)
{
	char *s = strdup(arg), *tok, *save = NULL;

	if (s == NULL)
		err(1, NULL);
	r->nalgo = 0;
	for (tok = strtok_r(s, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (r->nalgo == sizeof(r->algos) / sizeof(r->algos[0]))
			pmr_cli_bad("--algo", arg, "too long");
		if (pmr_mhash_algo_parse(tok, &r->algos[r->nalgo]) != 0)
			pmr_cli_bad("--algo", tok, "unknown");
		r->nalgo++;
	}
	free(s);
	if (r->nalgo == 0)
		pmr_cli_bad("--algo", arg, "empty");
}

int
main(int argc, char *argv[])
{
	static const struct option long_opts[] = {
		{ "acc", required_argument, NULL, 'A' },
		{ "acc-init", required_argument, NULL, O_ACC_INIT },
		{ "accounting", required_argument, NULL, O_ACCOUNTING },
		{ "algo", required_argument, NULL, 'a' },
		{ "area", no_argument, NULL, O_AREA },
		{ "bytes", required_argument, NULL, O_BYTES },
		{ "counter-bits", required_argument, NULL, 'c' },
		{ "cu", no_argument, NULL, O_CU },
		{ "dump-events", no_argument, NULL, O_DUMP },
		{ "empty", required_argument, NULL, O_EMPTY },
		{ "entries", required_argument, NULL, 'H' },
		{ "eval", no_argument, NULL, 'E' },
		{ "exact", no_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "hash", required_argument, NULL, O_HASH },
		{ "hex", no_argument, NULL, O_HEX },
		{ "interval", required_argument, NULL, 'L' },
		{ "kind", required_argument, NULL, 'k' },
		{ "no-cu", no_argument, NULL, O_NO_CU },
		{ "no-reset", no_argument, NULL, O_NO_RESET },
		{ "no-retain", no_argument, NULL, O_NO_RETAIN },
		{ "partial", no_argument, NULL, O_PARTIAL },
		{ "preset", required_argument, NULL, 'p' },
		{ "reset", no_argument, NULL, O_RESET },
		{ "reset-on-overflow", no_argument, NULL, O_RESET_OVF },
		{ "retain", no_argument, NULL, O_RETAIN },
		{ "sbox", required_argument, NULL, O_SBOX },
		{ "stats", no_argument, NULL, O_STATS },
		{ "summary", no_argument, NULL, O_SUMMARY },
		{ "sweep", required_argument, NULL, O_SWEEP },
		{ "synth", required_argument, NULL, O_SYNTH },
		{ "tables", required_argument, NULL, 'n' },
		{ "trace", no_argument, NULL, O_TRACE },
		{ "text", no_argument, NULL, O_TEXT },
		{ "theory", no_argument, NULL, O_THEORY },
		{ "threshold", required_argument, NULL, 't' },
		{ "victim", required_argument, NULL, O_VICTIM },
		PMR_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static struct prof profs[MAXCFG];
	struct pmr_mhash_cfg sw[MAXCFG], xc;
	struct run r;
	struct pmr_textout tout = { .f = NULL };
	const char *synth_spec = NULL;
	char msg[160];
	int ch, i, rc, status = 0, n;
	size_t j;

	pmr_cli_init("mhash", synopsis, help);
	memset(&r, 0, sizeof(r));
	r.p = profs;
	r.kind = PMR_EV_VALUE;
	r.cur_kind = PMR_EV_VALUE;
	pmr_common_init(&r.com);
	pmr_mhash_cfg_init(&r.base);
	while ((ch = getopt_long(argc, argv,
	    "A:a:c:Eef:H:k:L:n:p:t:" PMR_COMMON_SHORTOPTS, long_opts,
	    NULL)) != -1) {
		switch (ch) {
		case 'A':
			r.base.acc = (uint32_t)pmr_cli_num("--acc", optarg, 1,
			    1 << 24);
			break;
		case 'a':
			parse_algos(&r, optarg);
			break;
		case 'c':
			r.base.cbits = (unsigned)pmr_cli_num("--counter-bits",
			    optarg, 1, 32);
			break;
		case 'E':
			r.eval = 1;
			break;
		case 'e':
			r.exact = 1;
			break;
		case 'f':
			r.fmt = (enum fmt)pmr_cli_pick("--format", optarg,
			    fmt_names);
			break;
		case 'H':
			r.base.entries = (uint32_t)pmr_cli_num("--entries",
			    optarg, 1, 1 << 30);
			break;
		case 'k':
			r.kind = pmr_cli_pick("--kind", optarg, kind_names);
			break;
		case 'L':
			r.base.interval = pmr_cli_num("--interval", optarg, 1,
			    (long long)1 << 40);
			break;
		case 'n':
			r.base.tables = (uint32_t)pmr_cli_num("--tables",
			    optarg, 1, PMR_MHASH_MAXTABLES);
			break;
		case 'p':
			if (pmr_mhash_preset(&r.base, optarg) != 0)
				pmr_cli_bad("--preset", optarg, "unknown");
			break;
		case 't':
			if (pmr_mhash_parse_pct(optarg, &r.base.theta_ppb) != 0)
				pmr_cli_bad("--threshold", optarg,
				    "not a percentage in (0, 100]");
			break;
		case O_CU:
		case O_NO_CU:
			r.base.cu = ch == O_CU;
			break;
		case O_RESET:
		case O_NO_RESET:
			r.base.reset = ch == O_RESET;
			break;
		case O_RETAIN:
		case O_NO_RETAIN:
			r.base.retain = ch == O_RETAIN;
			break;
		case O_HASH:
			r.base.hash = (enum pmr_mhash_hashfn)pmr_cli_pick(
			    "--hash", optarg, hash_names);
			break;
		case O_SBOX:
			r.base.sbox_random = pmr_cli_pick("--sbox", optarg,
			    sbox_names);
			break;
		case O_VICTIM:
			r.base.victim = (enum pmr_mhash_victim)pmr_cli_pick(
			    "--victim", optarg, victim_names);
			break;
		case O_ACC_INIT:
			r.base.acc_init = (enum pmr_mhash_init)pmr_cli_pick(
			    "--acc-init", optarg, init_names);
			break;
		case O_RESET_OVF:
			r.base.reset_on_overflow = 1;
			break;
		case O_BYTES:
			r.base.bytes = pmr_cli_num("--bytes", optarg, 1,
			    (long long)1 << 40);
			break;
		case O_ACCOUNTING:
			r.base.exact_bytes = pmr_cli_pick("--accounting",
			    optarg, acct_names);
			break;
		case O_AREA:
			r.area = 1;
			break;
		case O_THEORY:
			r.theory = 1;
			break;
		case O_STATS:
			r.stats = 1;
			break;
		case O_SUMMARY:
			r.summary_only = 1;
			break;
		case O_EMPTY:
			r.empty_zero = pmr_cli_pick("--empty", optarg,
			    empty_names);
			break;
		case O_PARTIAL:
			r.with_partial = 1;
			break;
		case O_TEXT:
			r.text = 1;
			break;
		case O_HEX:
			r.hex = 1;
			break;
		case O_TRACE:
			r.trace = 1;
			break;
		case O_SYNTH:
			synth_spec = optarg;
			break;
		case O_DUMP:
			r.dump = 1;
			break;
		case O_SWEEP:
			r.sweep = optarg;
			break;
		default:
			pmr_cli_common(&r.com, ch, optarg);
		}
	}
	argc -= optind;
	argv += optind;
	if (r.com.seed_set)
		r.base.seed = r.com.seed;
	if (r.kind == K_ADDR && !r.trace) {
		warnx("--kind=addr needs --trace");
		pmr_cli_usage();
	}
	if (r.trace && r.text) {
		warnx("--trace and --text exclude each other");
		pmr_cli_usage();
	}
	if (synth_spec != NULL) {
		const char *bad;

		r.synth = 1;
		pmr_mhash_synth_init(&r.syn, r.base.seed);
		if (pmr_mhash_synth_parse(&r.syn, synth_spec, &bad) != 0)
			pmr_cli_bad("--synth", bad, "invalid");
		if (argc > 0) {
			warnx("--synth takes no input file");
			pmr_cli_usage();
		}
	}
	if (!r.area && !r.theory && !r.synth && argc == 0 &&
	    isatty(STDIN_FILENO))
		pmr_cli_help();

	if (r.fmt == F_PMR && !r.dump)
		r.pw = open_writer(&r, argc + optind, argv - optind);
	if (r.theory) {		/* needs no valid configuration */
		print_theory(&r);
		goto out;
	}
	/* The configurations. */
	if (r.sweep != NULL) {
		n = pmr_mhash_sweep(r.sweep, &r.base, sw, MAXCFG);
		if (n < 0)
			pmr_cli_bad("--sweep", r.sweep, "unknown");
		for (i = 0; i < n; i++)
			add_prof(&r, &sw[i]);
	} else if (r.exact && !r.eval) {
		xc = r.base;
		xc.algo = PMR_MHASH_EXACT;
		add_prof(&r, &xc);
	} else if (r.nalgo > 0) {
		for (j = 0; j < r.nalgo; j++) {
			xc = r.base;
			xc.algo = r.algos[j];
			add_prof(&r, &xc);
		}
	} else
		add_prof(&r, &r.base);
	if (r.p[0].c.hash == PMR_MHASH_HGIVEN && (!r.text || r.np > 1)) {
		warnx("--hash=given needs --text input and one configuration");
		pmr_cli_usage();
	}
	r.input = r.synth ? synth_spec : argc == 0 ? "-" : argv[0];
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	/* A text report goes to a temporary file renamed when complete
	 * (pmr_textout); an error exit removes it. */
	if (r.com.output != NULL && strcmp(r.com.output, "-") != 0 &&
	    !r.dump && r.pw == NULL) {
		if (pmr_textout_open(&tout, r.com.output) != PMR_OK ||
		    (tout.f != stdout &&
		    dup2(tout.fd, STDOUT_FILENO) < 0))
			err(1, "cannot create '%s'", r.com.output);
	}
	if (r.area) {
		print_area(&r);
		goto out;
	}

	if (r.dump)
		r.w = open_writer(&r, argc + optind, argv - optind);
	else {
		for (j = 0; j < r.np; j++) {
			r.p[j].m = pmr_mhash_new(&r.p[j].c, msg, sizeof(msg));
			if (r.p[j].m == NULL)
				errx(1, "%s", msg);
		}
		if (r.eval || r.stats) {
			xc = r.p[0].c;
			xc.algo = PMR_MHASH_EXACT;
			xc.hash = PMR_MHASH_HPAPER;
			if (pmr_mhash_cfg_finish(&xc, msg, sizeof(msg)) != 0 ||
			    (r.ex = pmr_mhash_new(&xc, msg, sizeof(msg))) ==
			    NULL)
				errx(1, "%s", msg);
		}
		r.blocks = r.np == 1 && !r.summary_only;
		for (j = 0; j < r.np; j++)
			print_config(&r, &r.p[j]);
	}

	/* The events. */
	pmr_progress_start(&r.progress, "mhash", " events", &r.events, 0,
	    r.com.quiet);
	if (r.synth && r.w != NULL) {
		uint64_t pc, v;

		while (pmr_mhash_synth_next(&r.syn, &pc, &v))
			feed(&r, pc, v, NULL);
	} else if (r.synth) {
		static uint64_t pc[BATCH], v[BATCH];
		size_t k;

		do {
			for (k = 0; k < BATCH && pmr_mhash_synth_next(&r.syn,
			    &pc[k], &v[k]); k++)
				;
			feed_batch(&r, pc, v, k);
		} while (k == BATCH);
	} else if (r.trace)
		for (i = 0; i < (argc > 0 ? argc : 1); i++)
			status |= read_trace(&r, argc > 0 ? argv[i] : "-");
	else if (!r.text && r.w == NULL && r.pw == NULL)
		status = read_pmr_all(&r, argc, argv);
	else
		for (i = 0; i < (argc > 0 ? argc : 1); i++) {
			const char *path = argc > 0 ? argv[i] : "-";

			status |= r.text ? read_text(&r, path) :
			    read_pmr(&r, path);
		}
	pmr_progress_end(&r.progress);
	/* a profile of nothing is said, not left to be read as "no hot
	 * tuples" (an EVENT-less stream, a trace without loaded values) */
	if (r.events == 0 && status == 0 && !r.com.quiet)
		warnx("warning: no events in the input");
	if (r.w != NULL) {
		if (pmr_writer_close(r.w, msg, sizeof(msg)) != 0)
			errx(1, "%s: %s", pmr_outname(r.com.output), msg);
		goto out;
	}
	/* The final partial interval, if any. */
	rc = 0;
	for (j = 0; j < r.np; j++)
		rc = pmr_mhash_finish(r.p[j].m);
	if (r.ex != NULL)
		rc = pmr_mhash_finish(r.ex);
	if (rc)
		interval_end(&r, 1);
	if (!r.blocks || r.eval || r.stats)
		print_summary(&r);
	if (r.com.verbose)
		fprintf(stderr, "mhash: %" PRIu64 " events, %zu "
		    "configurations\n", r.events, r.np);
out:
	if (r.pw != NULL && pmr_writer_close(r.pw, msg, sizeof(msg)) != 0)
		errx(1, "%s: %s", pmr_outname(r.com.output), msg);
	for (j = 0; j < r.np; j++)
		pmr_mhash_free(r.p[j].m);
	pmr_mhash_free(r.ex);
	free(r.rows);
	free(r.prevx);
	/* with -o, standard output is the report file (dup2 above) */
	if (ferror(stdout) | fflush(stdout))
		err(1, "%s", pmr_outname(tout.f != NULL ? r.com.output : NULL));
	if (tout.f != NULL && pmr_textout_close(&tout, status == 0) != PMR_OK)
		err(1, "%s", pmr_outname(r.com.output));
	if (fclose(stdout) != 0)
		err(1, "%s", pmr_outname(tout.f != NULL ? r.com.output : NULL));
	return status;
}
