/*
 * synth.c: synthetic event streams for mhash experiments and tests
 * (mhash(1) --synth: our generator, no paper's).
 *
 * We have no SPEC/Alpha/ATOM traces, so experiments also run on streams of
 * a known shape: a few hot tuples that carry a large share of the events,
 * a long tail of noise tuples, and optional phase changes that move the
 * hot set.  The generator is splitmix64, so a seed reproduces a stream
 * exactly; it allocates nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/mhash.h"
#include "util/cli.h"
#include "util/mix.h"

static inline uint64_t
sm64(uint64_t *x)
{
	return pmr_splitmix64(x);
}

void
pmr_mhash_synth_init(struct pmr_mhash_synth *s, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->events = 1000000;
	s->nhot = 40;
	s->share = 60;
	s->nnoise = 4000;
	s->seed = seed;
	s->st = seed;
}

int
pmr_mhash_synth_parse(struct pmr_mhash_synth *s, const char *spec,
    const char **bad)
{
	static char item[64];
	const char *p = spec, *start = spec, *e;
	long long v;
	size_t n;
	char *eq;

	while (*p != '\0') {
		start = p;
		n = strcspn(p, ",");
		if (n == 0 || n >= sizeof(item))
			goto fail;
		memcpy(item, p, n);
		item[n] = '\0';
		p += n;
		if (*p == ',')
			p++;
		if ((eq = strchr(item, '=')) == NULL)
			goto fail;
		*eq++ = '\0';
		v = pmr_strtonum(eq, 0, (long long)1 << 50, &e);
		if (e != NULL)
			goto fail;
		if (strcmp(item, "n") == 0 && v > 0)
			s->events = (uint64_t)v;
		else if (strcmp(item, "hot") == 0 && v > 0 && v <= 1 << 20)
			s->nhot = (uint32_t)v;
		else if (strcmp(item, "share") == 0 && v <= 100)
			s->share = (uint32_t)v;
		else if (strcmp(item, "noise") == 0 && v > 0)
			s->nnoise = (uint64_t)v;
		else if (strcmp(item, "phase") == 0)
			s->phase = (uint64_t)v;
		else if (strcmp(item, "newpid") == 0)
			s->newpid = (uint64_t)v;
		else if (strcmp(item, "seed") == 0)
			s->seed = s->st = (uint64_t)v;
		else
			goto fail;
	}
	return 0;
fail:
	snprintf(item, sizeof(item), "%.*s", (int)strcspn(start, ","), start);
	*bad = item;
	return -1;
}

int
pmr_mhash_synth_next(struct pmr_mhash_synth *s, uint64_t *pc,
    uint64_t *value)
{
	uint64_t r, k, ph;

	if (s->n >= s->events)
		return 0;
	ph = s->phase > 0 ? s->n / s->phase : 0;
	/* a process that runs newpid samples (gcc's 56 compilations,
	 * SOSP '97 §5.2): the same code under a pid never seen before */
	s->pid = s->newpid > 0 ? (uint32_t)(s->n / s->newpid) : 0;
	s->n++;
	r = sm64(&s->st);
	if (r % 100 < s->share) {
		/* Skewed: a uniform k, then a uniform j <= k. */
		k = (r >> 8) % s->nhot;
		k = sm64(&s->st) % (k + 1);
		k += ph * s->nhot;
		*pc = 0x400000 + 4 * (k % 997);
		*value = k * 8 + 1;
	} else {
		k = (r >> 8) % s->nnoise;
		*pc = 0x400000 + 4 * (k % 1999);
		*value = 0x100000000ull + k;
	}
	return 1;
}
