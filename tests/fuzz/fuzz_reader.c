/*
 * fuzz_reader.c: libFuzzer target for the stream reader, the generic
 * decoder and the printer.  Any input must give records or a clean error
 * code, never a crash, a hang or a read out of bounds.  "make fuzz" builds
 * it with -fsanitize=fuzzer,address,undefined and runs it for FUZZ_SECONDS
 * on a corpus seeded from tests/data.
 */
#include <stdio.h>
#include <stdlib.h>

#include "stream/pmr.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *null;
	struct pmr_reader *r;
	struct pmr_rec rec;
	const char *why;
	unsigned char out[512];
	int err = 0, ret, n = 0;

	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		abort();
	r = pmr_reader_open_mem(data, size, PMR_RD_FRAMING, &err);
	if (r == NULL)
		return 0;
	while ((ret = pmr_reader_next(r, &rec)) == 1 && n++ < 100000) {
		if (rec.p == NULL && rec.len > 0)
			abort();
		if (pmr_rtype_find(rec.type) != NULL)
			(void)pmr_rec_decode(&rec, out, &why);
		(void)pmr_rec_print(null, PMR_FMT_TSV, &rec, NULL, &why);
		(void)pmr_rec_print(null, PMR_FMT_JSON, &rec, NULL, &why);
	}
	if (ret < 0 && pmr_reader_errmsg(r)[0] == '\0')
		abort();	/* every error has a message */
	pmr_reader_close(r);
	return 0;
}
