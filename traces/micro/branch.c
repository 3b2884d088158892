/*
 * branch.c: a loop with a data-dependent, unpredictable branch.  Each of N
 * iterations draws a bit from a fixed LCG and increments one of two
 * counters in memory: a conditional branch taken half the time at random,
 * which no predictor can learn (about 50% mispredicted), next to perfectly
 * predictable loop branches.
 */
#include <stdint.h>

#ifndef N
#define N 200000
#endif

static volatile long heads, tails;

int
main(void)
{
	uint64_t x = 1;
	long i;

	for (i = 0; i < N; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if ((x >> 40) & 1)
			heads++;
		else
			tails++;
	}
	return heads + tails != N;
}
