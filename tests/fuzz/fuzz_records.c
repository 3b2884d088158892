/*
 * fuzz_records.c: libFuzzer target for what the analysis programs do with
 * the records they read, past the reader: pairs' accumulation, rows,
 * metrics and scoring (SAMPLE, PAIR, TRUTH, ATRUTH, STATS, META, IMAGE,
 * METRIC records), and mhash's models on EVENT records (a multi-hash and
 * the exact profile, with the error of every interval).  Any stream must
 * give results or a clean error code with a message, never a crash, a read
 * or write out of bounds or undefined behaviour (a SAMPLE whose events
 * field had bit 31 set once made pairs write past an array).  "make fuzz"
 * builds it with -fsanitize=fuzzer,address,undefined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mhash/mhash.h"
#include "pairs/pairs.h"
#include "stream/pmr.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void
run_pairs(const unsigned char *data, size_t size)
{
	struct pmr_pairs_opts o;
	struct pmr_reader *r;
	struct pmr_rec rec;
	struct pmr_pairs *p;
	struct pmr_pairs_row *rows;
	struct pmr_pairs_val v;
	struct pmr_pairs_score sc;
	const char *note;
	size_t n, i;
	int err = 0, ret, m, k = 0;

	memset(&o, 0, sizeof(o));
	o.confidence = 0.95;
	o.occupancy = 1;
	if ((p = pmr_pairs_new(&o)) == NULL)
		return;
	if ((r = pmr_reader_open_mem(data, size, PMR_RD_FRAMING, &err)) ==
	    NULL)
		goto out;
	while ((ret = pmr_reader_next(r, &rec)) == 1 && k++ < 100000)
		if ((ret = pmr_pairs_add(p, &rec)) < 0) {
			if (pmr_pairs_errmsg(p)[0] == '\0')
				abort();	/* every error says why */
			break;
		}
	pmr_reader_close(r);
	if (ret < 0 || pmr_pairs_finish(p) != 0 ||
	    pmr_pairs_rows(p, PMR_PAIRS_BY_PC, &rows, &n, &note) != 0)
		goto out;
	for (m = 0; m < pmr_pairs_nmetrics(); m++) {
		for (i = 0; i < n && i < 64; i++)
			(void)pmr_pairs_eval(p, &rows[i], m, &v);
		(void)pmr_pairs_score(p, rows, n, m, 1, &sc);
	}
	if (pmr_pairs_rows(p, PMR_PAIRS_BY_ALL, &rows, &n, &note) == 0)
		for (m = 0; m < pmr_pairs_nmetrics(); m++)
			for (i = 0; i < n; i++)
				(void)pmr_pairs_eval(p, &rows[i], m, &v);
out:
	pmr_pairs_free(p);
}

static void
run_mhash(const unsigned char *data, size_t size)
{
	struct pmr_mhash_cfg c, xc;
	struct pmr_mhash *mh = NULL, *ex = NULL;
	struct pmr_mhash_err e;
	const struct pmr_mhash_cand *cand;
	struct pmr_reader *r;
	struct pmr_rec rec;
	size_t nc, nrows;
	char msg[160];
	int err = 0, k = 0, closed;

	pmr_mhash_cfg_init(&c);
	c.interval = 64;	/* many intervals from a small input */
	if (pmr_mhash_cfg_finish(&c, msg, sizeof(msg)) != 0)
		abort();
	xc = c;
	xc.algo = PMR_MHASH_EXACT;
	if (pmr_mhash_cfg_finish(&xc, msg, sizeof(msg)) != 0 ||
	    (mh = pmr_mhash_new(&c, msg, sizeof(msg))) == NULL ||
	    (ex = pmr_mhash_new(&xc, msg, sizeof(msg))) == NULL)
		goto out;
	if ((r = pmr_reader_open_mem(data, size, PMR_RD_FRAMING, &err)) ==
	    NULL)
		goto out;
	while (pmr_reader_next(r, &rec) == 1 && k++ < 100000) {
		uint64_t pc, v;

		if (rec.type != PMR_REC_EVENT || rec.len < 17)
			continue;
		pc = pmr_le64(rec.p + 1);
		v = pmr_le64(rec.p + 9);
		closed = pmr_mhash_add(mh, pc, v);
		if (pmr_mhash_add(ex, pc, v) != closed)
			abort();	/* the same L closes the same intervals */
		if (closed) {
			cand = pmr_mhash_result(mh, &nc);
			pmr_mhash_eval(ex, cand, nc, &e, NULL, &nrows);
		}
	}
	pmr_reader_close(r);
out:
	pmr_mhash_free(mh);
	pmr_mhash_free(ex);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	run_pairs(data, size);
	run_mhash(data, size);
	return 0;
}
