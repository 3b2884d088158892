/*
 * fuzz_shotgun.c: libFuzzer target for shotgun's builder (lib/shotgun):
 * any stream's SIG and DET records (decoded as cmd/shotgun.c decodes
 * them) added to a builder of the fields03 machine, whose program is made
 * up on demand from each pc (a class, a length, a direct target and
 * registers drawn from the pc's bits, as a decoder would give them), then
 * fragments built with the options of shotgun(1) and with the paper's
 * (no strata, keep, resync or calibration; the rate --wp; one bit).  Any
 * stream must give fragments or a clean error code with a message, never
 * a crash, a read or write out of bounds, a hang or undefined behaviour;
 * the fragments' nodes come in order, each fragment from position 0.
 * "make fuzz" builds it with -fsanitize=fuzzer,address,undefined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shotgun/shotgun.h"
#include "stream/pmr.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* A made-up instruction at pc: the same every time it is asked for. */
static int
fetch(void *arg, uint64_t pc, struct pmr_sinsn *si)
{
	uint64_t h = pc * UINT64_C(0x9e3779b97f4a7c15);

	(void)arg;
	if ((h >> 60) == 15)
		return 1;	/* no instruction here */
	memset(si, 0, sizeof(*si));
	si->pc = pc;
	si->isa = PMR_ISA_X86_64;
	si->cls = (uint8_t)(h >> 32) % PMR_OP_NCLASS;
	si->len = (uint8_t)(1 + (h >> 40) % 15);
	if (si->cls == PMR_OP_BR_COND || si->cls == PMR_OP_JMP ||
	    si->cls == PMR_OP_CALL)
		si->target = pc + (h >> 44 & 255) - 128;
	si->nsrc = (uint8_t)(h >> 52 & 1) + 1;
	si->src[0] = (uint16_t)(h >> 20 & 15);
	si->src[1] = (uint16_t)(h >> 24 & 15);
	si->ndst = 1;
	si->dst[0] = (uint16_t)(h >> 28 & 15);
	if (si->cls == PMR_OP_LOAD || si->cls == PMR_OP_STORE ||
	    si->cls == PMR_OP_LDST) {
		si->nmem = 1;
		si->nload = si->cls != PMR_OP_STORE;
		si->msize[0] = 8;
	}
	return 0;
}

struct order {
	uint64_t frag;
	uint32_t pos;
	int any;
};

static int
emit(void *arg, const struct pmr_sim_gnode *n, uint64_t frag, uint32_t pos)
{
	struct order *o = arg;

	(void)n;
	if (o->any && !(frag == o->frag && pos == o->pos + 1) &&
	    !(frag > o->frag && pos == 0))
		abort();
	if (!o->any && pos != 0)
		abort();
	o->any = 1, o->frag = frag, o->pos = pos;
	return 0;
}

static void
run(const unsigned char *data, size_t size, const struct pmr_shotgun_opts *so)
{
	struct pmr_sim_config cfg;
	struct pmr_shotgun *g = NULL;
	struct pmr_reader *r;
	struct pmr_rec rec;
	struct order o = { 0, 0, 0 };
	int err = 0, rc = 0, k = 0;

	if (pmr_sim_config_preset(&cfg, "fields03") != 0)
		abort();
	if ((r = pmr_reader_open_mem(data, size, PMR_RD_FRAMING, &err)) ==
	    NULL)
		return;
	while (pmr_reader_next(r, &rec) == 1 && k++ < 20000) {
		const char *why;

		if (rec.type != PMR_REC_SIG && rec.type != PMR_REC_DET)
			continue;
		if (g == NULL && (g = pmr_shotgun_new(so, &cfg, &err)) ==
		    NULL)
			abort();	/* the options are good */
		if (rec.type == PMR_REC_SIG) {
			struct pmr_sim_sig s;

			if (pmr_rec_decode(&rec, &s, &why) != 0)
				continue;
			rc = pmr_shotgun_add_sig(g, &s);
		} else {
			struct pmr_sim_det d;

			if (pmr_rec_decode(&rec, &d, &why) != 0)
				continue;
			rc = pmr_shotgun_add_det(g, &d);
		}
		if (rc != 0)
			break;
	}
	pmr_reader_close(r);
	if (g == NULL)
		return;
	if (rc != 0) {
		if (pmr_shotgun_errmsg(g)[0] == '\0')
			abort();	/* every error says why */
		goto out;
	}
	pmr_shotgun_set_fetch(g, fetch, NULL);
	rc = pmr_shotgun_build(g, emit, &o);
	if (rc != 0 && pmr_shotgun_errmsg(g)[0] == '\0')
		abort();
	if (rc == 0 && pmr_shotgun_stats(g)->kept > 0 && !o.any)
		abort();	/* kept fragments have nodes */
out:
	pmr_shotgun_free(g);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* shotgun(1)'s defaults, but few fragments */
	struct pmr_shotgun_opts ours = PMR_SHOTGUN_OPTS_CMD;
	/* the paper's way, the rate --wp, one bit */
	static const struct pmr_shotgun_opts paper = { .fragments = 20,
	    .ctx = 4, .bits = 1, .lookahead = 0, .wp = 1, .seed = 2 };

	ours.fragments = 20, ours.warm = 64, ours.seed = 1;
	run(data, size, &ours);
	run(data, size, &paper);
	return 0;
}
