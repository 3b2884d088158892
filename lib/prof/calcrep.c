/*
 * calcrep.c: pmprof calc's reports (calcrep.h): DCPI's annotated listing
 * (SOSP '97 Fig. 2), procedure summary (Fig. 4), the worst stalls, and
 * the accuracy of it all against TRUTH (§6.2's figures, Figs. 8-9).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof/calcrep.h"

static const char conf_letter[] = "-LMH";
static const char why_letter[] = " rus";
static const char *const why_name[] = { "", "Register dependency",
	"FU dependency", "Issue width" };

static double
pct(double x, double tot)
{
	return tot > 0 ? 100 * x / tot : 0;
}

/* the letters of an instruction's dynamic causes ("?" none) */
static const char *
letters(unsigned causes, char *buf)
{
	unsigned c, n = 0;

	for (c = 0; c < PMR_CALC_NCAUSE; c++)
		if (causes & 1u << c)
			buf[n++] = pmr_calc_letter[c];
	if (n == 0)
		buf[n++] = '?';
	buf[n] = '\0';
	return buf;
}

/* cycles per execution beyond the schedule */
static double
dyn_cycles(const struct pmr_calc_insn *in)
{
	return in->F > 0 ? in->dyn / in->F : 0;
}

void
pmr_calc_report_list(FILE *f, const struct pmr_calc_proc *cp,
    const char *path, int tsv)
{
	struct pmr_calc_sum s;
	size_t i, ncls = 0;
	char buf[16];

	memset(&s, 0, sizeof(s));
	pmr_calc_sum_add(&s, cp);
	for (i = 0; i < cp->nb; i++)
		ncls += cp->b[i].cls == i;
	if (tsv) {
		fprintf(f, "#pc\tblock\tclass\tsamples\tfreq\tconf\tM\tstatic"
		    "\tstatic_why\tstatic_culprit\tcpi\tdynamic\tcauses\t"
		    "load\ttrue_freq\ttrue_cpi\tinstruction\n");
		for (i = 0; i < cp->ni; i++) {
			const struct pmr_calc_insn *in = &cp->in[i];

			fprintf(f, "0x%" PRIx64 "\t%u\t%u\t%.0f\t%.1f\t%c\t%u"
			    "\t%u\t%c\t", in->pc, in->block,
			    cp->b[in->block].cls, in->S, in->F * cp->P,
			    conf_letter[in->conf], in->sc.M, in->sc.stall,
			    in->sc.why ? why_letter[in->sc.why] : '-');
			if (in->sc.culprit >= 0)
				fprintf(f, "0x%" PRIx64, cp->in[in->sc.culprit].pc);
			else
				fputc('-', f);
			if (in->F > 0)
				fprintf(f, "\t%.2f\t%.2f\t%s\t", in->S / in->F,
				    dyn_cycles(in), in->dyn > 0 ?
				    letters(in->causes, buf) : "-");
			else
				fprintf(f, "\t-\t-\t-\t");
			if (in->dload >= 0)
				fprintf(f, "0x%" PRIx64, cp->in[in->dload].pc);
			else
				fputc('-', f);
			fprintf(f, "\t%.0f\t", in->t_ret);
			if (in->t_ret > 0)
				fprintf(f, "%.2f", in->t_head / in->t_ret);
			else
				fputc('-', f);
			fprintf(f, "\t%s\n", in->text);
		}
		return;
	}
	fprintf(f, "procedure %s in %s [0x%" PRIx64 ", 0x%" PRIx64 "): %zu "
	    "instructions, %zu blocks, %zu classes%s\n", cp->name, path,
	    cp->lo, cp->hi, cp->ni, cp->nb, ncls, cp->missing ?
	    ", edges missing (an indirect jump): no flow into blocks" : "");
	fprintf(f, "P = %.2f cycles per sample; %.0f samples, %.0f with a "
	    "frequency\n", cp->P, s.samples, s.tallied);
	fprintf(f, "*** Best-case %.0f/%.0f = %.2fCPI\n", s.best, s.insns,
	    s.insns > 0 ? s.best / s.insns : 0);
	fprintf(f, "*** Actual %.0f/%.0f = %.2fCPI\n", s.actual, s.insns,
	    s.insns > 0 ? s.actual / s.insns : 0);
	fprintf(f, "%-14s %8s %10s %4s %8s %-14s %s\n", "address", "samples",
	    "freq", "conf", "cpi", "culprit", "instruction");
	for (i = 0; i < cp->ni; i++) {
		const struct pmr_calc_insn *in = &cp->in[i];
		double d = dyn_cycles(in);
		char cul[32] = "";

		if (i == cp->b[in->block].first)
			fprintf(f, "%-14s block %u, class %u\n", "",
			    in->block, cp->b[in->block].cls);
		if (in->sc.M > 1 && in->F > 0)
			fprintf(f, "%-14s %c %u.0cy static\n", "",
			    why_letter[in->sc.why ? in->sc.why :
			    PMR_SCHED_WIDTH], in->sc.M - 1);
		if (d >= 0.5)
			fprintf(f, "%-14s %s %.1fcy\n", "",
			    letters(in->causes, buf), d);
		if (in->sc.culprit >= 0)
			snprintf(cul, sizeof(cul), "%" PRIx64,
			    cp->in[in->sc.culprit].pc);
		else if (d >= 0.5 && in->dload >= 0)
			snprintf(cul, sizeof(cul), "%" PRIx64,
			    cp->in[in->dload].pc);
		fprintf(f, "0x%-12" PRIx64 " %8.0f ", in->pc, in->S);
		if (in->F > 0)
			fprintf(f, "%10.0f %4c ", in->F * cp->P,
			    conf_letter[in->conf]);
		else
			fprintf(f, "%10s %4s ", "-", "-");
		if (in->F > 0 && in->sc.M == 0 && in->S < in->F)
			fprintf(f, "%8s ", "(dual)");
		else if (in->F > 0)
			fprintf(f, "%6.1fcy ", in->S / in->F);
		else
			fprintf(f, "%8s ", "-");
		fprintf(f, "%-14s %s\n", cul, in->text);
	}
}

void
pmr_calc_report_sum(FILE *f, const char *what, const struct pmr_calc_sum *s,
    int tsv)
{
	double a = s->actual, dyn = s->unexpl + s->gain, st = 0;
	unsigned c;

	for (c = 1; c < 4; c++)
		st += s->st[c];
	dyn += s->dynpos;
	if (tsv) {
		fprintf(f, "#scope\tkey\tlo\thi\n");
		fprintf(f, "%s\tsamples\t%.0f\t%.0f\n", what, s->samples,
		    s->samples);
		fprintf(f, "%s\ttallied\t%.0f\t%.0f\n", what, s->tallied,
		    s->tallied);
		fprintf(f, "%s\tbest_cpi\t%.4f\t%.4f\n", what, s->insns ?
		    s->best / s->insns : 0, s->insns ? s->best / s->insns : 0);
		fprintf(f, "%s\tactual_cpi\t%.4f\t%.4f\n", what, s->insns ?
		    a / s->insns : 0, s->insns ? a / s->insns : 0);
		for (c = 0; c < PMR_CALC_NCAUSE; c++)
			fprintf(f, "%s\t%s\t%.2f\t%.2f\n", what,
			    pmr_calc_cause_name[c], pct(s->lo[c], a),
			    pct(s->hi[c], a));
		fprintf(f, "%s\tUnexplained stall\t%.2f\t%.2f\n", what,
		    pct(s->unexpl, a), pct(s->unexpl, a));
		fprintf(f, "%s\tUnexplained gain\t%.2f\t%.2f\n", what,
		    pct(s->gain, a), pct(s->gain, a));
		fprintf(f, "%s\tSubtotal dynamic\t%.2f\t%.2f\n", what,
		    pct(dyn, a), pct(dyn, a));
		for (c = 1; c < 4; c++)
			fprintf(f, "%s\t%s\t%.2f\t%.2f\n", what, why_name[c],
			    pct(s->st[c], a), pct(s->st[c], a));
		fprintf(f, "%s\tSubtotal static\t%.2f\t%.2f\n", what,
		    pct(st, a), pct(st, a));
		fprintf(f, "%s\tExecution\t%.2f\t%.2f\n", what,
		    pct(s->exec, a), pct(s->exec, a));
		fprintf(f, "%s\tNet sampling error\t%.2f\t%.2f\n", what,
		    pct(s->dual, a), pct(s->dual, a));
		return;
	}
	fprintf(f, "%s\n", what);
	fprintf(f, "*** Best-case %.0f/%.0f = %.2fCPI,  Actual %.0f/%.0f = "
	    "%.2fCPI\n", s->best, s->insns, s->insns ? s->best / s->insns :
	    0, a, s->insns, s->insns ? a / s->insns : 0);
	for (c = 0; c < PMR_CALC_NCAUSE; c++)
		fprintf(f, "%s%s %.1f%% to %.1f%%%s", c % 3 == 0 ? "*** " :
		    "    ", pmr_calc_cause_name[c], pct(s->lo[c], a),
		    pct(s->hi[c], a), c % 3 == 2 ? "\n" : "");
	fprintf(f, "    Unexplained stall %.1f%%  Unexplained gain %.1f%%\n",
	    pct(s->unexpl, a), pct(s->gain, a));
	fprintf(f, "*** Subtotal dynamic %.1f%%\n", pct(dyn, a));
	fprintf(f, "*** %s %.1f%%  %s %.1f%%  %s %.1f%%\n", why_name[1],
	    pct(s->st[1], a), why_name[2], pct(s->st[2], a), why_name[3],
	    pct(s->st[3], a));
	fprintf(f, "*** Subtotal static %.1f%%  Total stall %.1f%%  Execution "
	    "%.1f%%  Net sampling error %.1f%%\n", pct(st, a),
	    pct(st + dyn, a), pct(s->exec, a), pct(s->dual, a));
	fprintf(f, "*** Total tallied %.1f%%  (%.0f, %.1f%% of all "
	    "samples)\n", pct(st + dyn + s->exec + s->dual, a), s->tallied,
	    pct(s->tallied, s->samples));
}

static int
bucket(double est, double truth)
{
	double e;
	int k;

	if (truth <= 0)
		return PMR_CALC_NBUCKET - 1;
	e = 100 * (est / truth - 1);
	if (e < -45)
		return 0;
	if (e >= 45)
		return PMR_CALC_NBUCKET - 1;
	k = (int)floor(e / 5) + 10;
	return k < 0 ? 0 : k >= PMR_CALC_NBUCKET ? PMR_CALC_NBUCKET - 1 : k;
}

void
pmr_calc_score_add(struct pmr_calc_score *sc, const struct pmr_calc_proc *cp)
{
	size_t i;
	unsigned c;

	for (i = 0; i < cp->ni; i++) {
		const struct pmr_calc_insn *in = &cp->in[i];
		unsigned n = (unsigned)__builtin_popcount(in->causes);
		double r;

		if (in->S > 0) {
			sc->w += in->S;
			r = in->t_ret > 0 && in->F > 0 ? fabs(in->F * cp->P /
			    in->t_ret - 1) : INFINITY;
			sc->w5 += r <= 0.05 ? in->S : 0;
			sc->w10 += r <= 0.10 ? in->S : 0;
			sc->w15 += r <= 0.15 ? in->S : 0;
			sc->hi_insn[bucket(in->F * cp->P, in->t_ret)] += in->S;
			if (r > 0.15) {
				sc->off15 += in->S;
				if (in->conf <= PMR_CALC_LOW)
					sc->off15_low += in->S;
			}
		}
		for (c = 0; c < PMR_CALC_NCAUSE; c++) {
			double t = in->t_hd[PMR_CALC_T_ICACHE + c];

			sc->tdyn += t;
			if (in->causes & 1u << c)
				sc->trecall += t;
		}
		sc->tstatic += in->t_hd[PMR_CALC_T_STATIC];
		sc->tother += in->t_hd[PMR_CALC_T_OTHER];
		sc->thead += in->t_head;
		if (in->conf != PMR_CALC_NONE && in->sc.M > 0 && in->dyn > 0) {
			sc->sdyn += in->dyn;
			if (n == 0)
				sc->unexpl += in->dyn;
			if (n == 1)
				sc->s1 += in->dyn;
			if (n >= 1 && n <= 2)
				sc->s12 += in->dyn;
		}
		if (in->conf != PMR_CALC_NONE)
			sc->tallied += in->S;
	}
	for (i = 0; i < cp->ne; i++) {
		const struct pmr_calc_edge *e = &cp->e[i];

		if (e->from == PMR_CALC_NOWHERE || e->truth <= 0)
			continue;
		sc->ew += e->truth;
		if (e->known && fabs(e->F * cp->P / e->truth - 1) <= 0.10)
			sc->ew10 += e->truth;
		sc->hi_edge[bucket(e->known ? e->F * cp->P : 0, e->truth)] +=
		    e->truth;
	}
}

void
pmr_calc_report_score(FILE *f, const char *label,
    const struct pmr_calc_score *sc, int header, int tsv)
{
	if (header && tsv)
		fprintf(f, "#runs\twithin5\twithin10\twithin15\tlow_of_off15"
		    "\tedges_within10\tcause_recall\tone_cause\tone_or_two\t"
		    "unexplained\n");
	else if (header)
		fprintf(f, "%-12s %8s %8s %8s %9s %8s %8s %8s %8s %8s\n",
		    "runs", "<=5%", "<=10%", "<=15%", "low|>15%", "edges10",
		    "recall", "1cause", "1-2cause", "unexpl");
	fprintf(f, tsv ? "%s\t%.1f\t%.1f\t%.1f\t" :
	    "%-12s %7.1f%% %7.1f%% %7.1f%% ", label, pct(sc->w5, sc->w),
	    pct(sc->w10, sc->w), pct(sc->w15, sc->w));
	if (sc->off15 > 0)
		fprintf(f, tsv ? "%.1f\t" : "%8.1f%% ", pct(sc->off15_low,
		    sc->off15));
	else
		fprintf(f, tsv ? "-\t" : "%9s ", "-");
	fprintf(f, tsv ? "%.1f\t" : "%7.1f%% ", pct(sc->ew10, sc->ew));
	if (sc->thead > 0 && sc->tdyn > 0)
		fprintf(f, tsv ? "%.1f\t" : "%7.1f%% ", pct(sc->trecall,
		    sc->tdyn));
	else
		fprintf(f, tsv ? "-\t" : "%8s ", "-");
	fprintf(f, tsv ? "%.1f\t%.1f\t%.1f\n" : "%7.1f%% %7.1f%% %7.1f%%\n",
	    pct(sc->s1, sc->sdyn), pct(sc->s12, sc->sdyn),
	    pct(sc->unexpl, sc->tallied));
}

static int
cmp_top(const void *x, const void *y)
{
	const struct pmr_calc_top *a = x, *b = y;

	return a->stall < b->stall ? 1 : a->stall > b->stall ? -1 :
	    a->pc < b->pc ? -1 : a->pc > b->pc;
}

int
pmr_calc_top_add(struct pmr_calc_tops *t, const struct pmr_calc_proc *cp)
{
	size_t i;

	for (i = 0; i < cp->ni; i++) {
		const struct pmr_calc_insn *in = &cp->in[i];
		struct pmr_calc_top *x;
		double st;

		if (in->F <= 0 || in->sc.M == 0)
			continue;
		st = in->F * (in->sc.M - 1) + (in->dyn > 0 ? in->dyn : 0);
		if (st <= 0)
			continue;
		if (t->n == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 256;

			if ((x = realloc(t->v, cap * sizeof(*x))) == NULL)
				return PMR_ENOMEM;
			t->v = x;
			t->cap = cap;
		}
		x = &t->v[t->n++];
		memset(x, 0, sizeof(*x));
		x->pc = in->pc;
		snprintf(x->proc, sizeof(x->proc), "%s", cp->name);
		snprintf(x->text, sizeof(x->text), "%s", in->text);
		x->stall = st;
		x->samples = in->S;
		x->st_cy = in->sc.M - 1;
		x->why = in->sc.why;
		x->dyn_cy = in->dyn > 0 ? in->dyn / in->F : 0;
		x->causes = in->dyn > 0 ? in->causes : 0;
		x->culprit = in->sc.culprit >= 0 ? cp->in[in->sc.culprit].pc :
		    0;
		x->load = in->dload >= 0 ? cp->in[in->dload].pc : 0;
	}
	return 0;
}

void
pmr_calc_report_top(FILE *f, struct pmr_calc_tops *t, size_t n, int tsv)
{
	size_t i;
	char buf[16];

	qsort(t->v, t->n, sizeof(*t->v), cmp_top);
	if (n > t->n)
		n = t->n;
	fprintf(f, tsv ? "#pc\tprocedure\tsamples\tstall_samples\tstatic_cy"
	    "\tstatic_why\tdynamic_cy\tcauses\tculprit\tload\tinstruction\n" :
	    "%-14s %-24s %8s %8s %7s %8s %-7s %-12s %s\n", "address",
	    "procedure", "samples", "stall", "static", "dynamic", "causes",
	    "culprit", "instruction");
	for (i = 0; i < n; i++) {
		const struct pmr_calc_top *x = &t->v[i];
		char cul[24] = "-";

		if (x->culprit)
			snprintf(cul, sizeof(cul), "%" PRIx64, x->culprit);
		else if (x->load)
			snprintf(cul, sizeof(cul), "%" PRIx64, x->load);
		if (tsv)
			fprintf(f, "0x%" PRIx64 "\t%s\t%.0f\t%.0f\t%u\t%c\t"
			    "%.2f\t%s\t%s\t%s\n", x->pc, x->proc, x->samples,
			    x->stall, x->st_cy, why_letter[x->why],
			    x->dyn_cy, x->dyn_cy > 0 ? letters(x->causes,
			    buf) : "-", cul, x->text);
		else
			fprintf(f, "0x%-12" PRIx64 " %-24.24s %8.0f %8.0f "
			    "%5ucy %6.1fcy %-7s %-12s %s\n", x->pc, x->proc,
			    x->samples, x->stall, x->st_cy, x->dyn_cy,
			    x->dyn_cy > 0 ? letters(x->causes, buf) : "-",
			    cul, x->text);
	}
}

void
pmr_calc_report_hist(FILE *f, const char *label,
    const struct pmr_calc_score *sc, int header, int tsv)
{
	int k;

	if (header)
		fprintf(f, tsv ? "#runs\tbucket\tinsns\tedges\n" :
		    "%-12s %8s %8s %8s\n", "runs", "error%", "insns", "edges");
	for (k = 0; k < PMR_CALC_NBUCKET; k++) {
		char b[16];

		if (k == 0)
			snprintf(b, sizeof(b), "<-45");
		else if (k == PMR_CALC_NBUCKET - 1)
			snprintf(b, sizeof(b), ">=45");
		else
			snprintf(b, sizeof(b), "%d", 5 * (k - 10));
		fprintf(f, tsv ? "%s\t%s\t%.2f\t%.2f\n" :
		    "%-12s %8s %7.2f%% %7.2f%%\n", label, b,
		    pct(sc->hi_insn[k], sc->w), pct(sc->hi_edge[k], sc->ew));
	}
}
