/*
 * mix.h: splitmix64 (Steele, Lea and Flood, OOPSLA 2014), the project's one
 * generator of reproducible random streams and 64-bit hash mix: a seed
 * and a count give the same numbers on every machine.
 */
#ifndef PMR_UTIL_MIX_H
#define PMR_UTIL_MIX_H

#include <stdint.h>

/* The finalizer alone: a bijective mix of the 64 bits of z. */
static inline uint64_t
pmr_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The next value of the stream whose state is *x. */
static inline uint64_t
pmr_splitmix64(uint64_t *x)
{
	return pmr_mix64(*x += 0x9e3779b97f4a7c15ull);
}

#endif /* PMR_UTIL_MIX_H */
