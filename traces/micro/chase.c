/*
 * chase.c: a pointer chase through 16 MB, more than any L2.  The lines
 * form one random cycle (Sattolo's shuffle with a fixed LCG), so each load
 * depends on the previous one and misses the caches: the chase runs at one
 * memory latency per step.  The shuffle comes first; the chase is the last
 * STEPS loads of the trace.
 */
#include <stddef.h>
#include <stdint.h>

#ifndef STEPS
#define STEPS 200000
#endif
#define LINES (1u << 18)	/* 64-byte lines: 16 MB */

struct line {
	struct line *next;
	char pad[56];
};

static struct line mem[LINES];
static uint32_t perm[LINES];

int
main(void)
{
	uint64_t x = 88172645463325252ull;
	struct line *p;
	uint32_t i, j, t;
	long k;

	for (i = 0; i < LINES; i++)
		perm[i] = i;
	for (i = LINES - 1; i > 0; i--) {	/* Sattolo: one cycle */
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		j = (uint32_t)(x >> 33) % i;
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < LINES; i++)
		mem[perm[i]].next = &mem[perm[(i + 1) % LINES]];
	p = &mem[perm[0]];
	for (k = 0; k < STEPS; k++)
		p = p->next;
	return p == NULL;
}
