/*
 * convert.c: the loops over a whole trace that pmtrace runs (trace.h):
 * copying the instructions of any trace into a pmr trace writer (tracing,
 * import) or a ChampSim writer (export), counting them by class (stats),
 * and printing them one a line (dump).  It stands above trace.c and the
 * writers (pmr.c, export.c), and only calls into them.
 */
#include <inttypes.h>
#include <stdio.h>

#include "trace/trace.h"

/* A destination of instructions: returns PMR_OK or a negative code. */
typedef int (*put_fn)(void *dst, const struct pmr_dinsn *di);

/*
 * Reads t and passes its instructions to put(dst, di), leaving out the
 * first skip and stopping after max, at the end of t, or when *stop is
 * set.  With images, passes each IMAGE record of t to tw first.  Returns
 * as pmr_trace_copy().
 */
static int
pump(struct pmr_trace *t, uint64_t skip, uint64_t max, put_fn put,
    void *dst, struct pmr_trace_writer *images,
    const volatile sig_atomic_t *stop)
{
	const struct pmr_image *im;
	struct pmr_dinsn di;
	uint64_t n = 0;
	uint32_t nseen = 0;
	int r;

	while (n < max && (stop == NULL || !*stop)) {
		if ((r = pmr_trace_next(t, &di)) != 1)
			return r < 0 ? PMR_COPY_EREAD : PMR_COPY_OK;
		if (skip > 0) {
			skip--;
			continue;
		}
		/* a new static instruction may be the first of an image */
		if (images != NULL && di.si->id >= nseen) {
			nseen = di.si->id + 1;
			if ((im = pmr_trace_image_of(t, di.pc)) != NULL &&
			    pmr_trace_write_image(images, im) < 0)
				return PMR_COPY_EWRITE;
		}
		if (put(dst, &di) < 0)
			return PMR_COPY_EWRITE;
		n++;
	}
	return PMR_COPY_OK;
}

static int
put_pmr(void *dst, const struct pmr_dinsn *di)
{
	return pmr_trace_write(dst, di);
}

static int
put_champsim(void *dst, const struct pmr_dinsn *di)
{
	return pmr_champsim_write(dst, di);
}

int
pmr_trace_copy(struct pmr_trace *t, struct pmr_trace_writer *tw,
    uint64_t skip, uint64_t max, unsigned flags,
    const volatile sig_atomic_t *stop)
{
	return pump(t, skip, max, put_pmr, tw,
	    (flags & PMR_COPY_IMAGES) ? tw : NULL, stop);
}

int
pmr_trace_export(struct pmr_trace *t, struct pmr_champsim_writer *w,
    uint64_t skip, uint64_t max)
{
	return pump(t, skip, max, put_champsim, w, NULL, NULL);
}

int
pmr_trace_count(struct pmr_trace *t, struct pmr_trace_counts *c)
{
	struct pmr_dinsn di;
	int r;

	memset(c, 0, sizeof(*c));
	while ((r = pmr_trace_next(t, &di)) == 1) {
		c->n++;
		c->cls[di.si->cls]++;
		c->taken[di.si->cls] += di.flags & PMR_DI_TAKEN;
		c->loads += di.nload;
		c->stores += (uint64_t)(di.nmem - di.nload);
		c->values += (di.flags & PMR_DI_VALUE) != 0;
	}
	return r;
}

void
pmr_trace_counts_print(FILE *f, const char *name, const struct pmr_trace *t,
    const struct pmr_trace_counts *c)
{
	unsigned i;

	fprintf(f, "file\t%s\nformat\t%s\n", name,
	    pmr_trace_format_name(pmr_trace_format(t)));
	fprintf(f, "instructions\t%" PRIu64 "\nstatic\t%" PRIu32 "\n"
	    "loads\t%" PRIu64 "\nstores\t%" PRIu64 "\nvalues\t%" PRIu64 "\n",
	    c->n, pmr_trace_nsinsn(t), c->loads, c->stores, c->values);
	for (i = 0; i < PMR_OP_NCLASS; i++)
		if (c->cls[i] > 0)
			fprintf(f, "class\t%s\t%" PRIu64 "\t%" PRIu64 "\n",
			    pmr_insn_class_name(i), c->cls[i], c->taken[i]);
}

int
pmr_trace_dump(struct pmr_trace *t, FILE *f, uint64_t head)
{
	struct pmr_dinsn di;
	uint64_t n = 0;
	unsigned i;
	int r = 0;

	fprintf(f, "#seq\tpc\tclass\tlen\tnext_pc\ttaken\ttid\taccesses\t"
	    "value\n");
	while ((head == 0 || n < head) && (r = pmr_trace_next(t, &di)) == 1) {
		fprintf(f, "%" PRIu64 "\t0x%" PRIx64 "\t%s\t%u\t0x%" PRIx64
		    "\t%u\t%" PRIu32 "\t", di.seq, di.pc,
		    pmr_insn_class_name(di.si->cls), di.si->len, di.next_pc,
		    (di.flags & PMR_DI_TAKEN) != 0, di.tid);
		for (i = 0; i < di.nmem; i++)
			fprintf(f, "%s%c0x%" PRIx64 ":%u", i ? "," : "",
			    i < di.nload ? 'L' : 'S', di.addr[i], di.msize[i]);
		if (di.flags & PMR_DI_VALUE)
			fprintf(f, "%s\t0x%" PRIx64 "\n", di.nmem ? "" : "-",
			    di.value);
		else
			fprintf(f, "%s\t-\n", di.nmem ? "" : "-");
		n++;
	}
	return r < 0 ? r : PMR_OK;
}
