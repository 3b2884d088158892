/*
 * progress.c: a progress line on standard error for long runs (pmsim,
 * pmtrace, mhash, pairs), printed only when standard error is a terminal
 * and the user did not ask for quiet.
 *
 * This is the one part of the library that prints, and only because the
 * program asked for it by calling pmr_progress_start().  The hot path is
 * pmr_progress_tick(), an inline compare of the count against a threshold;
 * the clock is read only at the threshold, which adapts so that the line
 * is redrawn about four times a second whatever the rate.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "pmr_internal.h"

#define PERIOD 0.25		/* seconds between redraws */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void
pmr_progress_start(struct pmr_progress *p, const char *prog,
    const char *unit, uint64_t total, int quiet)
{
	p->prog = prog;
	p->unit = unit;
	p->total = total;
	p->shown = 0;
	p->on = !quiet && isatty(STDERR_FILENO);
	p->step = 1 << 16;
	p->next = p->on ? p->step : UINT64_MAX;
	p->t0 = p->last = p->on ? now() : 0;
	p->at_last = 0;
}

/* Prints n with a unit prefix (k, M, G) in at most 6 characters. */
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

void
pmr_progress_show(struct pmr_progress *p, uint64_t done)
{
	double t = now(), dt = t - p->last, rate;
	char a[32], b[32];

	if (!p->on)
		return;
	/* adapt the step so that the next check comes one period on */
	if (dt > 0 && done > p->at_last) {
		double per = (double)(done - p->at_last) / dt * PERIOD;

		p->step = per < 1024 ? 1024 : per > 1e9 ? 1000000000 :
		    (uint64_t)per;
	}
	p->next = done + p->step;
	if (dt < PERIOD / 2)
		return;
	p->last = t;
	p->at_last = done;
	rate = t > p->t0 ? (double)done / (t - p->t0) : 0;
	human(a, sizeof(a), (double)done);
	human(b, sizeof(b), rate);
	if (p->total > 0 && done <= p->total && rate > 0) {
		double left = (double)(p->total - done) / rate;

		fprintf(stderr, "\r%s: %s%s, %s/s, %.0f%%, %d:%02d left ",
		    p->prog, a, p->unit, b,
		    100.0 * (double)done / (double)p->total,
		    (int)(left / 60), (int)left % 60);
	} else
		fprintf(stderr, "\r%s: %s%s, %s/s ", p->prog, a, p->unit, b);
	fflush(stderr);
	p->shown = 1;
}

void
pmr_progress_end(struct pmr_progress *p)
{
	if (p->on && p->shown) {
		fputs("\r\033[K", stderr);	/* clear the line */
		fflush(stderr);
	}
	p->on = p->shown = 0;
	p->next = UINT64_MAX;
}
