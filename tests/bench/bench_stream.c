/*
 * bench_stream.c: throughput of libpmr's writer and reader.
 *
 *   bench_stream write FILE MB [level]   write EVENT records (zstd if FILE
 *                                        ends in .zst) until MB megabytes
 *   bench_stream read FILE               read and decode every record
 *
 * Prints one line: what, records, decoded bytes, seconds, MB/s, Mrec/s.
 * The records are EVENTs whose pcs cycle through a loop of 64 and whose
 * values follow a mix of strides and noise, so that they compress about
 * as well as real value-profile streams.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/pmr.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	double t0, t;
	uint64_t n = 0, bytes = 0, sum = 0;
	int err = 0;

	if (argc >= 4 && strcmp(argv[1], "write") == 0) {
		struct pmr_wopts o = { "bench", -1, argc > 4 ? atoi(argv[4]) :
			0, 0 };
		struct pmr_writer *w = pmr_writer_open(argv[2], &o, &err);
		uint64_t target = strtoull(argv[3], NULL, 10) * 1000000;
		uint64_t x = 88172645463325252ull;
		char eb[256];

		if (w == NULL)
			return 1;
		t0 = now();
		while (bytes < target) {
			unsigned char *p = pmr_write_reserve(w, PMR_REC_EVENT,
			    17);
			uint64_t pc = 0x400000 + (n % 64) * 4;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[0] = 1;
			pmr_put64(p + 1, pc);
			pmr_put64(p + 9, (n % 3) ? n * 8 : x & 0xffff);
			n++;
			bytes += 25;
		}
		if (pmr_writer_close(w, eb, sizeof(eb)) != 0) {
			fprintf(stderr, "bench_stream: %s\n", eb);
			return 1;
		}
		t = now() - t0;
		printf("write %-28s %10llu rec %8.1f MB %6.2f s %8.1f MB/s "
		    "%6.1f Mrec/s\n", argv[2], (unsigned long long)n,
		    (double)bytes / 1e6, t, (double)bytes / 1e6 / t,
		    (double)n / 1e6 / t);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "read") == 0) {
		struct pmr_reader *r = pmr_reader_open(argv[2], 0, &err);
		struct pmr_rec rec;
		struct pmr_event ev;
		const char *why;
		int ret;

		if (r == NULL)
			return 1;
		t0 = now();
		while ((ret = pmr_reader_next(r, &rec)) == 1) {
			if (rec.type == PMR_REC_EVENT &&
			    pmr_rec_decode(&rec, &ev, &why) == 0)
				sum += ev.value;
			n++;
			bytes += rec.len + 8;
		}
		t = now() - t0;
		if (ret < 0) {
			fprintf(stderr, "bench_stream: %s\n",
			    pmr_reader_errmsg(r));
			return 1;
		}
		pmr_reader_close(r);
		printf("read  %-28s %10llu rec %8.1f MB %6.2f s %8.1f MB/s "
		    "%6.1f Mrec/s (sum %llx)\n", argv[2],
		    (unsigned long long)n, (double)bytes / 1e6, t,
		    (double)bytes / 1e6 / t, (double)n / 1e6 / t,
		    (unsigned long long)(sum & 0xfff));
		return 0;
	}
	fprintf(stderr, "usage: bench_stream write FILE MB [level] | "
	    "read FILE\n");
	return 2;
}
