/*
 * stream.c: a streaming loop.  It writes a 32 MB array (more than any L2
 * and most L3s) sequentially, then sums it PASSES times: one 8-byte store,
 * then one 8-byte load, per element at consecutive addresses, with
 * perfectly predictable branches, so the loops are bound by memory
 * bandwidth unless the prefetcher keeps up.
 */
#include <stddef.h>

#ifndef PASSES
#define PASSES 2
#endif
#define NELEM (4u * 1024 * 1024)

long stream_a[NELEM];	/* not static: the compiler must load it */

int
main(void)
{
	long sum = 0;
	size_t i;
	int p;

	for (i = 0; i < NELEM; i++)
		stream_a[i] = (long)i;
	for (p = 0; p < PASSES; p++)
		for (i = 0; i < NELEM; i++)
			sum += stream_a[i];
	return sum == 42;
}
