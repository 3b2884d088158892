/*
 * progress.c: a progress line on standard error for long runs (pmsim,
 * pmtrace, mhash, pairs), printed only when standard error is a terminal
 * and the user did not ask for quiet.
 *
 * This is the one part of the library that prints, and only because the
 * program asked for it by calling pmr_progress_start().  It costs the hot
 * path nothing: a thread wakes four times a second and reads a counter the
 * program keeps anyway (the trace's instruction index, events fed, records
 * read).  The counter is read with a relaxed atomic load; it only ever
 * grows, and a value a moment old is all a progress line needs.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "util/cli.h"

#define PERIOD_NS 250000000L	/* between redraws */

static double
seconds(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

/* Prints n with a unit prefix (k, M, G). */
static void
human(char *buf, size_t len, double n)
{
	if (n >= 1e9)
		snprintf(buf, len, "%.2f G", n / 1e9);
	else if (n >= 1e6)
		snprintf(buf, len, "%.2f M", n / 1e6);
	else if (n >= 1e3)
		snprintf(buf, len, "%.1f k", n / 1e3);
	else
		snprintf(buf, len, "%.0f ", n);
}

static void
draw(struct pmr_progress *p, double t)
{
	uint64_t done = __atomic_load_n(p->counter, __ATOMIC_RELAXED);
	double rate = t > p->t0 ? (double)done / (t - p->t0) : 0;
	char a[32], b[32];

	human(a, sizeof(a), (double)done);
	human(b, sizeof(b), rate);
	if (p->total > 0 && done <= p->total && rate > 0) {
		double left = (double)(p->total - done) / rate;

		fprintf(stderr, "\r%s: %s%s, %s/s, %.0f%%, %d:%02d left\033[K\r",
		    p->prog, a, p->unit, b,
		    100.0 * (double)done / (double)p->total,
		    (int)(left / 60), (int)left % 60);
	} else
		fprintf(stderr, "\r%s: %s%s, %s/s\033[K\r", p->prog, a, p->unit,
		    b);
	fflush(stderr);		/* the cursor is left at column 0, so that a
				 * message of the program overwrites the line */
	p->shown = 1;
}

static void *
run(void *arg)
{
	struct pmr_progress *p = arg;
	struct timespec ts, now;

	pthread_mutex_lock(&p->mu);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	while (!p->stop) {
		ts.tv_nsec += PERIOD_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		while (!p->stop && pthread_cond_timedwait(&p->cv, &p->mu,
		    &ts) != ETIMEDOUT)
			;
		if (p->stop)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		draw(p, seconds(&now));
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void
pmr_progress_start(struct pmr_progress *p, const char *prog,
    const char *unit, const uint64_t *counter, uint64_t total, int quiet)
{
	pthread_condattr_t ca;
	struct timespec ts;

	p->prog = prog;
	p->unit = unit;
	p->counter = counter;
	p->total = total;
	p->shown = p->stop = 0;
	p->on = !quiet && isatty(STDERR_FILENO);
	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	p->t0 = seconds(&ts);
	pthread_mutex_init(&p->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	/* no thread, no progress line: the run itself goes on */
	if (pthread_create(&p->th, NULL, run, p) != 0) {
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
		p->on = 0;
	}
}

void
pmr_progress_end(struct pmr_progress *p)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	if (p->shown) {
		fputs("\r\033[K", stderr);	/* clear the line */
		fflush(stderr);
	}
	p->on = p->shown = 0;
}
