/*
 * report.c: mhash's reports: the configuration line, per-interval blocks
 * (I, C, E, S lines), the summary, the area and the theory, through the
 * table emitter (util/table.h) in text, TSV or JSON, or as HOT and META
 * records with -f pmr.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/run.h"
#include "util/table.h"

enum { K_CONFIG, K_I, K_C, K_E, K_S, K_SUM, K_AREA, K_THEORY, K_DCPI,
	K_N };
static const char *const knames[] = { "config", "I", "C", "E", "S",
	"summary", "area", "theory", "dcpi" };

/* The names of the settings, in the order of their enums (options and
 * the configuration line). */
const char *const pmr_mhash_hash_names[] = { "paper", "tab", "given", "exact",
	NULL };
const char *const pmr_mhash_sbox_names[] = { "perm", "random", NULL };
const char *const pmr_mhash_victim_names[] = { "lowest", "fifo", "lru",
	"random", NULL };
const char *const pmr_mhash_init_names[] = { "est", "threshold", "one", NULL };
const char *const pmr_mhash_acct_names[] = { "paper", "exact", NULL };
const char *const pmr_mhash_kind_names[] = { "all", "value", "edge", "addr",
	"sample", NULL };

/* The values of a report line (util/table.h), by type. */
#define FU(n, v, p) PMR_TVU(n, v, p)
#define FX(n, v) PMR_TVX(n, v)
#define FS(n, v, p) PMR_TVS(n, v, p)
#define FP(n, v, p) PMR_TVP(n, v, p)
#define FD(n, v) PMR_TVD(n, v)

int
pmr_mhash_fail(struct pmr_mhash_run *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->failed) {
		r->failed = 1;
		va_start(ap, fmt);
		vsnprintf(r->errmsg, sizeof(r->errmsg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

void
pmr_mhash_warn(struct pmr_mhash_run *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->warn != NULL)
		r->warn(r->warnarg, msg);
}

/* Prints one output line of kind k in format fmt on out. */
static void
emit_to(FILE *out, struct pmr_mhash_run *r, enum pmr_mhash_fmt fmt, int k,
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
emit_pmr(struct pmr_mhash_run *r, int k, const struct pmr_tval *f, size_t n)
{
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
			return (void)pmr_mhash_fail(r, "%s: %s",
			    pmr_outname(r->com.output),
			    pmr_writer_errmsg(r->pw));
		pmr_hot_put(b, &h);
		return;
	}
	if ((m = open_memstream(&text, &len)) == NULL)
		return (void)pmr_mhash_fail(r, "%s", strerror(errno));
	emit_to(m, r, PMR_MHASH_F_PMR, k, f, n);
	if (fclose(m) != 0) {
		free(text);
		return (void)pmr_mhash_fail(r, "%s", strerror(errno));
	}
	if (len > 0 && text[len - 1] == '\n')
		text[--len] = '\0';
	snprintf(key, sizeof(key), "mhash.%s", knames[k]);
	/* without the separator before the first field */
	if (pmr_write_meta(r->pw, key, text + (len > 0 && text[0] == ' ')) !=
	    0)
		pmr_mhash_fail(r, "%s: %s", pmr_outname(r->com.output),
		    pmr_writer_errmsg(r->pw));
	free(text);
}

/* Prints one output line of kind k in the run's format. */
static void
emit(struct pmr_mhash_run *r, int k, const struct pmr_tval *f, size_t n)
{
	if (r->fmt == PMR_MHASH_F_PMR)
		emit_pmr(r, k, f, n);
	else
		emit_to(r->out, r, r->fmt, k, f, n);
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

void
pmr_mhash_print_config(struct pmr_mhash_run *r, const struct pmr_mhash_prof *p)
{
	const struct pmr_mhash_cfg *c = &p->c;
	char theta[32];
	struct pmr_tval f[] = {
		FS("name", p->name, 0),
		FS("algo", pmr_mhash_algo_name(c->algo), 0),
		FU("N", c->tables, 0), FU("H", c->entries, 0),
		FU("S", c->size, 0), FU("cbits", c->cbits, 0),
		FU("cu", (uint64_t)c->cu, 0), FU("reset", (uint64_t)c->reset,
		    0),
		FU("retain", (uint64_t)c->retain, 0), FU("A", c->acc, 0),
		FU("k", c->k, 0), FU("L", c->interval, 0),
		FS("theta", theta, 0), FU("T", c->thresh, 0),
		FS("hash", pmr_mhash_hash_names[c->hash], 0),
		FS("sbox", pmr_mhash_sbox_names[c->sbox_random], 0),
		FS("victim", pmr_mhash_victim_names[c->victim], 0),
		FS("acc_init", pmr_mhash_init_names[c->acc_init], 0),
		FU("reset_on_overflow", (uint64_t)c->reset_on_overflow, 0),
		FU("budget", c->budget, 0),
		FS("accounting", pmr_mhash_acct_names[c->exact_bytes], 0),
		FU("seed", c->seed, 0),
		FS("kind", r->text || r->synth ? "-" :
		    pmr_mhash_kind_names[r->kind], 0),
		FS("source", r->synth ? "synth" : r->text ? "text" :
		    r->trace ? "trace" : "events", 0),
		FS("input", r->input, 0),
	};

	pct_str(c->theta_ppb, theta, sizeof(theta));
	emit(r, K_CONFIG, f, sizeof(f) / sizeof(f[0]));
}

void
pmr_mhash_print_area(struct pmr_mhash_run *r)
{
	struct pmr_mhash_area a;
	size_t i;

	if (r->fmt == PMR_MHASH_F_TEXT)
		printf("%-22s %10s %6s %10s %11s %10s %11s %10s\n", "# config",
		    "hash_B", "A", "acc_paper", "total_paper", "acc_exact",
		    "total_exact", "algo_B");
	for (i = 0; i < r->np; i++) {
		pmr_mhash_area(&r->p[i].c, &a);
		if (r->fmt == PMR_MHASH_F_TEXT) {
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
void
pmr_mhash_print_theory(struct pmr_mhash_run *r)
{
	const struct pmr_mhash_cfg *c = &r->base;
	double t = (double)c->theta_ppb / (PMR_MHASH_PPB / 100);
	unsigned n;

	if (r->fmt == PMR_MHASH_F_TEXT)
		printf("# p = (100 N / (t Z))^N, Z=%u t=%g%%\n# %4s %8s %12s\n",
		    c->entries, t, "N", "Z/N", "p");
	for (n = 1; n <= 16; n++) {
		double p = pmr_mhash_fp_bound(n, c->entries, t);

		if (r->fmt == PMR_MHASH_F_TEXT) {
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
print_block(struct pmr_mhash_run *r, struct pmr_mhash_prof *p,
    const struct pmr_mhash_cand *c, size_t n, const struct pmr_mhash_err *e,
    size_t nrows, int partial)
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
		if (r->fmt == PMR_MHASH_F_TEXT) {
			f[4].t = PMR_TV_STR;
			f[4].pos = 1;
			f[4].s = "partial";
		}
		emit(r, K_I, f, partial || r->fmt != PMR_MHASH_F_TEXT ? 5 : 4);
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
					return (void)pmr_mhash_fail(r, "%s",
					    strerror(ENOMEM));
			}
			if (nx > 0)	/* prevx is NULL until a set is kept */
				memcpy(r->prevx, xc, nx * sizeof(*xc));
			r->nprevx = nx;
		}

		emit(r, K_S, f, sizeof(f) / sizeof(f[0]));
	}
}

/* Handles the end of an interval for every profiler. */
void
pmr_mhash_interval_end(struct pmr_mhash_run *r, int partial)
{
	const struct pmr_mhash_cand *c;
	struct pmr_mhash_err e;
	size_t i, n, nx, nrows = 0;

	for (i = 0; i < r->np; i++) {
		struct pmr_mhash_prof *p = &r->p[i];

		c = pmr_mhash_result(p->m, &n);
		if (r->eval) {
			(void)pmr_mhash_result(r->ex, &nx);
			if (n + nx > r->rowcap) {
				r->rowcap = 2 * (n + nx);
				r->rows = realloc(r->rows,
				    r->rowcap * sizeof(*r->rows));
				if (r->rows == NULL)
					return (void)pmr_mhash_fail(r, "%s",
					    strerror(ENOMEM));
			}
			pmr_mhash_eval(r->ex, c, n, &e, r->rows, &nrows);
			pmr_mhash_enet_add(&p->agg, &e, partial);
		}
		if (r->blocks)
			print_block(r, p, c, n, r->eval ? &e : NULL,
			    nrows, partial);
	}
}

void
pmr_mhash_print_summary(struct pmr_mhash_run *r)
{
	const struct pmr_mhash_stats *s;
	struct pmr_mhash_area a;
	double parts[4], en;
	size_t i;

	if (r->fmt == PMR_MHASH_F_TEXT) {
		printf("# %-20s %9s", "config", "bytes");
		if (r->eval)
			printf(" %8s %7s %7s %7s %7s %8s %5s %5s", "E_net",
			    "NP", "NN", "FP", "FN", "max_E", "nfp", "nfn");
		printf(" %9s %9s %9s %9s\n", "intervals", "promote",
		    "overflow", "evict");
	}
	for (i = 0; i < r->np; i++) {
		struct pmr_mhash_prof *p = &r->p[i];

		s = pmr_mhash_stats(p->m);
		pmr_mhash_area(&p->c, &a);
		en = pmr_mhash_enet(&p->agg, parts);
		if (r->fmt == PMR_MHASH_F_TEXT) {
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

/* -a dcpi: the name of the configuration, such as "dcpi-e16384-w4-rr". */
static void
dcpi_name(const struct pmr_dcpi_cfg *c, char *buf, size_t len)
{
	snprintf(buf, len, "dcpi-e%u-w%u-%s", c->entries, c->ways,
	    pmr_dcpi_policy_names()[c->policy]);
}

void
pmr_mhash_print_dcpi_config(struct pmr_mhash_run *r)
{
	const struct pmr_dcpi_cfg *c = &r->dcpi_cfg;
	char name[64];
	struct pmr_tval f[] = {
		FS("name", name, 0),
		FS("algo", "dcpi", 0),
		FU("entries", c->entries, 0),
		FU("ways", c->ways, 0),
		FU("buckets", c->entries / c->ways, 0),
		FS("policy", pmr_dcpi_policy_names()[c->policy], 0),
		FS("hash", pmr_dcpi_hash_names()[c->hash], 0),
		FU("overflow", c->overflow, 0),
		FU("bytes", pmr_dcpi_bytes(c), 0),
		FS("kind", r->text || r->synth ? "-" :
		    pmr_mhash_kind_names[r->kind], 0),
		FS("source", r->synth ? "synth" : r->text ? "text" :
		    "events", 0),
		FS("input", r->input, 0),
	};

	dcpi_name(c, name, sizeof(name));
	emit(r, K_CONFIG, f, sizeof(f) / sizeof(f[0]));
}

void
pmr_mhash_print_dcpi(struct pmr_mhash_run *r)
{
	const struct pmr_dcpi_stats *s = pmr_dcpi_stats(r->dcpi);
	char name[64];
	struct pmr_tval f[] = {
		FS("config", name, 0),
		FU("samples", s->samples, 0),
		FU("hits", s->hits, 0),
		FU("misses", s->misses, 0),
		FP("miss_rate", s->samples > 0 ? (double)s->misses /
		    (double)s->samples : 0, 0),
		FU("evictions", s->evictions, 0),
		FU("flushed", s->flushed, 0),
		FU("records", s->records, 0),
		PMR_TVN("reduction", s->records > 0 ? (double)s->samples /
		    (double)s->records : 0, "%.1f"),
		FU("handoffs", s->handoffs, 0),
		FU("counted", s->counted, 0),
	};

	dcpi_name(&r->dcpi_cfg, name, sizeof(name));
	emit(r, K_DCPI, f, sizeof(f) / sizeof(f[0]));
}
