/*
 * fuzz_parse.c: libFuzzer target for the TSV parser of "pmview -r".  Any
 * line must parse into a payload that decodes, or be refused with a
 * message; never a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "stream/pmr.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static unsigned char buf[1 << 16];
	char *line, ebuf[256];
	unsigned char out[512];
	struct pmr_rec rec;
	const char *why;
	uint32_t type;
	int len;

	if ((line = malloc(size + 1)) == NULL)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	len = pmr_rec_parse(line, &type, buf, sizeof(buf), ebuf, sizeof(ebuf));
	if (len >= 0 && pmr_rtype_find(type) != NULL) {
		rec.type = type;
		rec.len = (uint32_t)len;
		rec.p = buf;
		if (pmr_rec_decode(&rec, out, &why) != 0)
			abort();	/* what parses must decode */
	}
	free(line);
	return 0;
}
