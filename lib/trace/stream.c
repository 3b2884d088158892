/*
 * stream.c: any instruction trace as a stream of native records.
 *
 * pmr_trace_reader_open() gives a record reader (stream/reader.c) for a
 * trace in any format that trace.c reads.  A pmr stream is read
 * directly; a ChampSim or drmemtrace trace is converted by a thread that
 * reads it with pmr_trace_next() and writes IMAGE/SINSN/DINSN records with
 * pmr_trace_write() into a pipe whose other end the reader reads.  The
 * conversion therefore runs on the second core while the consumer works,
 * memory stays bounded by the pipe, and every record consumer (pmview,
 * mhash, pairs...) accepts every trace source without knowing its format.
 * The conversion's errors become the reader's, without the file name that
 * the trace reader's messages start with: the reader's callers name the
 * file themselves, as for any pmr stream.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/pmr_internal.h"
#include "trace/trace.h"

struct conv {
	pthread_t th;
	struct pmr_trace *t;
	struct pmr_writer *w;
	pthread_mutex_t mu;
	char msg[320];		/* the conversion's error, "" if none */
	char prefix[320];	/* "'path': ", which msg leaves out */
};

static void
conv_fail(struct conv *c, const char *m)
{
	size_t n = strlen(c->prefix);

	if (n > 0 && strncmp(m, c->prefix, n) == 0)
		m += n;
	pthread_mutex_lock(&c->mu);
	if (c->msg[0] == '\0')
		snprintf(c->msg, sizeof(c->msg), "%s", m);
	pthread_mutex_unlock(&c->mu);
}

static void *
conv_main(void *arg)
{
	struct conv *c = arg;
	struct pmr_trace_writer *tw;
	struct pmr_dinsn di;
	sigset_t set;
	char eb[320];
	int e = 0, r;

	/* A reader that stops early closes the pipe: get EPIPE, not a
	 * process-wide SIGPIPE. */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if ((tw = pmr_trace_writer_new(c->w, &e)) == NULL) {
		conv_fail(c, pmr_strerror(e));
		pmr_writer_abort(c->w);
		return NULL;
	}
	while ((r = pmr_trace_next(c->t, &di)) == 1)
		if (pmr_trace_write(tw, &di) < 0)
			break;
	if (r < 0)
		conv_fail(c, pmr_trace_errmsg(c->t));
	else if (r == 1)	/* nobody asks if the reader stopped early */
		conv_fail(c, pmr_trace_writer_errmsg(tw));
	if (pmr_trace_writer_finish(tw, eb, sizeof(eb)) < 0 && r == 0)
		conv_fail(c, eb);
	if (r == 0 && c->msg[0] == '\0') {
		if (pmr_writer_close(c->w, eb, sizeof(eb)) < 0)
			conv_fail(c, eb);
	} else
		pmr_writer_abort(c->w);
	return NULL;
}

static const char *
conv_errmsg(void *ctx)
{
	struct conv *c = ctx;
	static __thread char buf[320];

	pthread_mutex_lock(&c->mu);
	snprintf(buf, sizeof(buf), "%s", c->msg);
	pthread_mutex_unlock(&c->mu);
	return buf;
}

static void
conv_done(void *ctx)
{
	struct conv *c = ctx;

	pthread_join(c->th, NULL);
	pmr_trace_close(c->t);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

struct pmr_reader *
pmr_trace_reader_open(const char *path, int fmt, unsigned flags, int *err,
    char *errbuf, size_t errlen)
{
	struct pmr_wopts o = { "pmtrace-import", 0, 0, 0 };
	struct pmr_reader *r;
	struct conv *c;
	int fds[2];

	/* Standard input, and anything that is not clearly a foreign trace,
	 * goes to the record reader, whose messages are the usual ones. */
	if (fmt == PMR_TF_AUTO)
		fmt = path == NULL || strcmp(path, "-") == 0 ? PMR_TF_PMR :
		    pmr_trace_detect(path);
	if (fmt < 0 || fmt == PMR_TF_PMR)
		return pmr_reader_open(path, flags, err);
	if ((c = calloc(1, sizeof(*c))) == NULL) {
		*err = PMR_ENOMEM;
		return NULL;
	}
	snprintf(c->prefix, sizeof(c->prefix), "'%s': ",
	    path != NULL ? path : "-");
	if ((c->t = pmr_trace_open(path, fmt, err, errbuf, errlen)) == NULL) {
		free(c);
		return NULL;
	}
	if (pipe(fds) != 0) {
		*err = PMR_EIO;
		goto fail;
	}
	if ((c->w = pmr_writer_fdopen(fds[1], &o, err)) == NULL) {
		close(fds[0]);
		goto fail;
	}
	if ((r = pmr_reader_fdopen(fds[0], flags, err)) == NULL) {
		pmr_writer_abort(c->w);
		goto fail;
	}
	pthread_mutex_init(&c->mu, NULL);
	if (pthread_create(&c->th, NULL, conv_main, c) != 0) {
		pmr_writer_abort(c->w);
		pmr_reader_close(r);
		pthread_mutex_destroy(&c->mu);
		*err = PMR_ENOMEM;
		goto fail;
	}
	pmr_reader_set_producer(r, conv_errmsg, conv_done, c);
	return r;
fail:
	if (errbuf != NULL)
		pmr_msg(errbuf, errlen, "%s", pmr_strerror(*err));
	pmr_trace_close(c->t);
	free(c);
	return NULL;
}
