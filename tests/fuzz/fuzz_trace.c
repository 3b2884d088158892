/*
 * fuzz_trace.c: libFuzzer target for the instruction-trace readers (pmr
 * SINSN/DINSN decoding with its predictors, ChampSim, drmemtrace), as
 * pmsim and pairs --rebuild use them.  Any input must give instructions
 * or a clean error with a message, never a crash, a hang or a read out
 * of bounds.  The readers open files, so each input goes through a
 * memfd.  "make fuzz" runs it with the corpus tests/data, whose
 * trace/head48.pmr and trace/allasm.pmr are small raw pmr traces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct pmr_trace *t;
	struct pmr_dinsn di;
	char path[64], err[256];
	int fd, e = 0, r;
	long n = 0;

	if ((fd = memfd_create("trace", 0)) < 0)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	err[0] = '\0';
	t = pmr_trace_open(path, PMR_TF_AUTO, &e, err, sizeof(err));
	if (t == NULL) {
		if (e >= 0 || err[0] == '\0')
			abort();	/* a failed open says why */
		close(fd);
		return 0;
	}
	while ((r = pmr_trace_next(t, &di)) == 1 && n++ < 1000000)
		if (di.si == NULL || di.pc != di.si->pc ||
		    di.nload > di.nmem || di.nmem > PMR_INSN_MAXMEM)
			abort();
	if (r < 0 && pmr_trace_errmsg(t)[0] == '\0')
		abort();	/* every error has a message */
	pmr_trace_close(t);
	close(fd);
	return 0;
}
