/*
 * input.c: mhash's inputs: EVENT records (one file at a time, or every
 * file through a reader thread that fills batches while the models run),
 * text lines "pc value [idx ...]", instruction traces read without
 * simulation, and --dump-events.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/run.h"
#include "trace/trace.h"

/* --dump-events: writes one EVENT record. */
static void
dump_event(struct pmr_mhash_run *r, unsigned kind, uint64_t pc, uint64_t v)
{
	unsigned char *b = pmr_write_reserve(r->w, PMR_REC_EVENT,
	    PMR_EVENT_SIZE);

	if (b == NULL) {
		pmr_mhash_fail(r, "%s: %s", pmr_outname(r->com.output),
		    pmr_writer_errmsg(r->w));
		return;
	}
	pmr_event_put(b, kind, pc, v);
}

void
pmr_mhash_feed(struct pmr_mhash_run *r, uint64_t pc, uint64_t v,
    const uint32_t *idx)
{
	size_t i;
	int done = 0;

	r->events++;
	if (r->w != NULL) {
		dump_event(r, r->cur_kind, pc, v);
		return;
	}
	if (r->dcpi != NULL) {
		pmr_dcpi_add(r->dcpi, r->cur_pid, pc, v);
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
		pmr_mhash_interval_end(r, 0);
}

/* Feeds n events to every profiler; all have the same L, so they close
 * their intervals after the same events. */
void
pmr_mhash_feed_batch(struct pmr_mhash_run *r, const uint64_t *pc,
    const uint64_t *v, size_t n)
{
	size_t off = 0, k = 0, i;
	int closed = 0;

	if (r->dcpi != NULL) {
		for (i = 0; i < n; i++)
			pmr_dcpi_add(r->dcpi, r->cur_pid, pc[i], v[i]);
		r->events += n;
		return;
	}
	while (off < n && !r->failed) {
		for (i = 0; i < r->np; i++)
			k = pmr_mhash_add_many(r->p[i].m, pc + off, v + off,
			    n - off, &closed);
		if (r->ex != NULL)
			k = pmr_mhash_add_many(r->ex, pc + off, v + off, n -
			    off, &closed);
		r->events += k;
		off += k;
		if (closed)
			pmr_mhash_interval_end(r, 0);
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

/* Reads "pc value [idx ...]" lines. */
int
pmr_mhash_read_text(struct pmr_mhash_run *r, const char *path)
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
		pmr_mhash_warn(r, "cannot open '%s': %s", path,
		    strerror(errno));
		return 1;
	}
	if (given)
		need += r->p[0].c.tables;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (pmr_is_binary(line, (size_t)len)) {
			pmr_mhash_fail(r, "'%s', line %" PRIu64
			    ": not text (binary data: a pmr stream or a trace "
			    "is read without --text)", pmr_display(path),
			    lineno);
			goto done;
		}
		if ((tok = strchr(line, '#')) != NULL)
			*tok = '\0';
		nf = 0;
		for (tok = strtok_r(line, " \t\r\n", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t\r\n", &save)) {
			if (nf >= 2 + PMR_MHASH_MAXTABLES) {
				pmr_mhash_fail(r, "'%s', line %"
				    PRIu64 ": too many fields",
				    pmr_display(path), lineno);
				goto done;
			}
			if (parse_num(tok, r->hex, &x) != 0) {
				char q[64];

				pmr_mhash_fail(r,
				    "'%s', line %" PRIu64 ": bad value '%s'",
				    pmr_display(path), lineno, pmr_quote(q,
				    sizeof(q), tok, strlen(tok)));
				goto done;
			}
			if (nf == 0)
				pc = x;
			else if (nf == 1)
				v = x;
			else if (!given)
				;	/* indices for --hash=given: ignored */
			else if (nf >= need) {
				pmr_mhash_fail(r, "'%s', line %"
				    PRIu64 ": too many fields (expected %u)",
				    pmr_display(path), lineno, need);
				goto done;
			} else if (x >= r->p[0].c.size) {
				pmr_mhash_fail(r, "'%s', line %"
				    PRIu64 ": index %" PRIu64 " is not below "
				    "the table size %u",
				    pmr_display(path), lineno, x,
				    r->p[0].c.size);
				goto done;
			} else
				idx[nf - 2] = (uint32_t)x;
			nf++;
		}
		if (nf == 0)
			continue;
		if (nf < need) {
			pmr_mhash_fail(r, "'%s', line %" PRIu64
			    ": expected %u fields, got %u", pmr_display(path),
			    lineno, need, nf);
			goto done;
		}
		pmr_mhash_feed(r, pc, v, given ? idx : NULL);
		if (r->failed)
			break;
	}
	if (!r->failed && ferror(f))
		pmr_mhash_fail(r, "'%s': %s", pmr_display(path),
		    strerror(errno));
done:
	free(line);
	if (f != stdin)
		fclose(f);
	return r->failed ? -1 : 0;
}

/*
 * --kind=sample: feeds a SAMPLE record as (pc, sampler) of pid context,
 * DCPI's (PID, PC, EVENT) key.  Returns 0, or -1 on a corrupt record.
 */
static int
feed_sample(struct pmr_mhash_run *r, const char *path,
    const struct pmr_rec *rec)
{
	struct pmr_sim_sample s;
	const char *why;

	if (pmr_rec_decode(rec, &s, &why) != 0)
		return pmr_mhash_fail(r, "'%s': record %" PRIu64 ": bad SAMPLE: "
		    "%s", pmr_display(path), rec->index, why);
	r->cur_pid = s.context;
	pmr_mhash_feed(r, s.pc, s.sampler, NULL);
	return 0;
}

/* Reads the EVENT (or, with --kind=sample, SAMPLE) records of a pmr
 * stream.  Returns 0, or 1 after a message (unreadable file). */
int
pmr_mhash_read_pmr(struct pmr_mhash_run *r, const char *path)
{
	struct pmr_reader *rd;
	struct pmr_rec rec;
	int e = 0, ret = 0;

	if ((rd = pmr_reader_open(path, 0, &e)) == NULL) {
		pmr_mhash_warn(r, "cannot open '%s': %s", pmr_display(path),
		    pmr_strerror(e));
		return 1;
	}
	while (!r->failed && (ret = pmr_reader_next(rd, &rec)) > 0) {
		if (r->kind == PMR_MHASH_K_SAMPLE &&
		    rec.type == PMR_REC_SAMPLE) {
			if (feed_sample(r, path, &rec) != 0)
				break;
			continue;
		}
		if (rec.type == PMR_REC_EVENT && rec.len < PMR_EVENT_SIZE &&
		    r->kind != PMR_MHASH_K_SAMPLE) {
			pmr_mhash_fail(r, "'%s': record %" PRIu64
			    ": EVENT payload of %" PRIu32 " bytes, expected "
			    "17", pmr_display(path), rec.index, rec.len);
			break;
		}
		if (rec.type != PMR_REC_EVENT ||
		    r->kind == PMR_MHASH_K_SAMPLE ||
		    (r->kind != 0 && rec.p[0] != r->kind)) {
			/* not ours: with -f pmr, passed through in order (the
			 * input's PROV chain, IMAGE, tool records) */
			if (r->pw != NULL && pmr_write_raw(r->pw, rec.type,
			    rec.p, rec.len) != 0)
				pmr_mhash_fail(r, "%s: %s",
				    pmr_outname(r->com.output),
				    pmr_writer_errmsg(r->pw));
			continue;
		}
		r->cur_kind = rec.p[0];
		pmr_mhash_feed(r, pmr_event_pc(rec.p), pmr_event_value(rec.p),
		    NULL);
	}
	if (!r->failed && ret < 0)
		pmr_mhash_fail(r, "'%s': %s", pmr_display(path),
		    pmr_reader_errmsg(rd));
	pmr_reader_close(rd);
	return r->failed ? -1 : 0;
}

/*
 * Binary input runs the reader in its own thread, so that decompression
 * and record parsing overlap with the models: the reader fills batches of
 * events in a small ring and the main thread consumes them.  Errors in
 * the reader are reported by the main thread after the events before them.
 */
#define BATCH PMR_MHASH_BATCH
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
	struct pmr_mhash_run *r;	/* for warnings */
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
			pmr_mhash_warn(f->r, "cannot open '%s': %s",
			    pmr_display(path), pmr_strerror(e));
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
int
pmr_mhash_read_pmr_all(struct pmr_mhash_run *r, int nfiles, char **files)
{
	struct feeder f;
	struct batch *b;
	pthread_t th;

	memset(&f, 0, sizeof(f));
	f.kind = r->kind;
	f.nfiles = nfiles;
	f.files = files;
	if ((f.b = malloc(NBATCH * sizeof(*f.b))) == NULL)
		return pmr_mhash_fail(r, "%s", strerror(ENOMEM));
	pthread_mutex_init(&f.mu, NULL);
	pthread_cond_init(&f.cv, NULL);
	f.r = r;
	if ((errno = pthread_create(&th, NULL, feeder_run, &f)) != 0) {
		free(f.b);
		return pmr_mhash_fail(r, "cannot start the reader thread: %s",
		    strerror(errno));
	}
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
		pmr_mhash_feed_batch(r, b->pc, b->v, b->n);
		pthread_mutex_lock(&f.mu);
		f.tail++;
		pthread_cond_broadcast(&f.cv);
		pthread_mutex_unlock(&f.mu);
	}
	pthread_join(th, NULL);
	free(f.b);
	if (r->failed)
		return -1;
	if (f.msg[0] != '\0')
		return pmr_mhash_fail(r, "%s", f.msg);
	return f.status;
}

/*
 * Derives the tuples from an instruction trace (pmr, ChampSim, drmemtrace)
 * without simulating it: a load with its loaded value (value), a control
 * transfer with the pc that followed it, taken or not (edge), or a load
 * with its first address (addr, for traces without values).  Returns 0, or
 * 1 if the trace could not be opened.
 */
int
pmr_mhash_read_trace(struct pmr_mhash_run *r, const char *path)
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
			pmr_mhash_warn(r, "%s", msg);
		else
			pmr_mhash_warn(r, "cannot open '%s': %s",
			    pmr_display(path), pmr_strerror(e));
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
		} else if (k == PMR_MHASH_K_ADDR && di.nload > 0) {
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
			pmr_mhash_feed_batch(r, pc, v, n);
			tuples += n;
			n = 0;
		}
		if (r->failed)
			break;
	}
	pmr_mhash_feed_batch(r, pc, v, n);
	tuples += n;
	if (r->failed) {
		pmr_trace_close(t);
		return -1;
	}
	if (ret < 0) {
		pmr_mhash_fail(r, "%s", pmr_trace_errmsg(t));
		pmr_trace_close(t);
		return -1;
	}
	pmr_trace_close(t);
	if (k == PMR_EV_VALUE && tuples == 0 && loads > 0 && !r->com.quiet)
		pmr_mhash_warn(r, "'%s': %" PRIu64 " loads but no loaded "
		    "values; try --kind=addr", pmr_display(path), loads);
	return 0;
}
