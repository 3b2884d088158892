/*
 * sched.c: operation timing and the static schedule of a block on an
 * in-order core (sched.h).
 */
#include <string.h>

#include "sim/sched.h"

void
pmr_sim_optime(const struct pmr_sim_config *c, unsigned cls,
    unsigned nload, unsigned nstore, struct pmr_sim_optime *t)
{
	unsigned pool = PMR_SIM_POOL_ALU, lat = c->lat_alu;

	if (cls >= PMR_OP_NCLASS)
		cls = PMR_OP_OTHER;
	switch (cls) {
	case PMR_OP_IMUL:
		pool = PMR_SIM_POOL_IMUL;
		lat = c->lat_imul;
		break;
	case PMR_OP_IDIV:
		pool = PMR_SIM_POOL_IMUL;
		lat = c->lat_idiv;
		break;
	case PMR_OP_FADD:
		pool = PMR_SIM_POOL_FADD;
		lat = c->lat_fadd;
		break;
	case PMR_OP_FMUL:
		pool = PMR_SIM_POOL_FMUL;
		lat = c->lat_fmul;
		break;
	case PMR_OP_FDIV:
		pool = PMR_SIM_POOL_FMUL;
		lat = c->lat_fdiv;
		break;
	case PMR_OP_LOAD:
	case PMR_OP_STORE:
	case PMR_OP_LDST:
		pool = PMR_SIM_POOL_MEM;
		break;
	}
	if (lat > 255)
		lat = 255;
	if ((cls == PMR_OP_LOAD || cls == PMR_OP_LDST) && nload == 0)
		nload = 1;
	if ((cls == PMR_OP_STORE || cls == PMR_OP_LDST) && nstore == 0)
		nstore = 1;
	if (nload > 0 && cls != PMR_OP_LOAD && cls != PMR_OP_LDST &&
	    pool != PMR_SIM_POOL_MEM)
		pool = PMR_SIM_POOL_MEM;	/* load, then operate */
	else if (nload > 0 || nstore > 0) {
		pool = PMR_SIM_POOL_MEM;
		lat = 0;
	}
	if (nstore > 0 && nload == 0)
		lat = 1;
	t->cls = (uint8_t)cls;
	t->pool = (uint8_t)pool;
	t->lat = (uint8_t)lat;
	t->nload = (uint8_t)(nload < 255 ? nload : 255);
	t->nstore = (uint8_t)(nstore < 255 ? nstore : 255);
	t->occupy = (uint8_t)((cls == PMR_OP_IDIV || cls == PMR_OP_FDIV) &&
	    lat > 1 ? lat : 1);
	t->hit = (uint16_t)(lat + (nload > 0 ? c->l1d_lat : 0));
}

/* pmsim's issue reads registers by number; x86's fit in this. */
#define NREG 1024

void
pmr_sim_sched(const struct pmr_sim_config *c, const struct pmr_sinsn *si,
    size_t n, size_t npre, int taken, const int32_t *memdep,
    struct pmr_sched *out)
{
	/* per register: ready cycle + 1 (0: ready from the start) and the
	 * writer; registers are cleared as they are written, so only the
	 * block's are ever set */
	static __thread uint32_t rt[NREG];
	static __thread int32_t wr[NREG];
	uint64_t longu[PMR_SIM_NPOOL][8];	/* busy until, divides */
	unsigned nlong[PMR_SIM_NPOOL], used[PMR_SIM_NPOOL], nfu[PMR_SIM_NPOOL];
	unsigned nused = 0;
	int32_t lastu[PMR_SIM_NPOOL];
	uint32_t cur = 0;
	size_t k, j;

	nfu[PMR_SIM_POOL_ALU] = c->n_alu;
	nfu[PMR_SIM_POOL_IMUL] = c->n_imul;
	nfu[PMR_SIM_POOL_FADD] = c->n_fadd;
	nfu[PMR_SIM_POOL_FMUL] = c->n_fmul;
	nfu[PMR_SIM_POOL_MEM] = c->n_mem;
	memset(nlong, 0, sizeof(nlong));
	memset(used, 0, sizeof(used));
	for (j = 0; j < PMR_SIM_NPOOL; j++)
		lastu[j] = -1;
	for (k = 0; k < n; k++) {
		struct pmr_sim_optime ot;
		struct pmr_sched *o = &out[k];
		uint32_t c0, t, dep = 0;
		int32_t dw = -1;
		unsigned p;

		pmr_sim_optime(c, si[k].cls, si[k].nload,
		    (unsigned)(si[k].nmem - si[k].nload), &ot);
		p = ot.pool;
		memset(o, 0, sizeof(*o));
		o->culprit = -1;
		for (j = 0; j < PMR_INSN_MAXSRC; j++)
			o->src_from[j] = -1;
		for (j = 0; j < si[k].nsrc && j < PMR_INSN_MAXSRC; j++) {
			unsigned r = si[k].src[j] % NREG;

			if (rt[r] == 0)
				continue;
			o->src_from[j] = wr[r];
			if (rt[r] - 1 >= dep) {
				dep = rt[r] - 1;
				dw = wr[r];
			}
		}
		if (memdep != NULL && memdep[k] >= 0 && (size_t)memdep[k] < k) {
			/* a forwarded load: the store's result, a cycle on */
			uint32_t m = out[memdep[k]].t + 1;

			if (m >= dep) {
				dep = m;
				dw = memdep[k];
			}
		}
		/* the earliest cycle order and width allow */
		c0 = k == 0 ? 0 : out[k - 1].t;
		if (k > 0 && (nused >= c->issue_width || (k == npre &&
		    taken)))
			c0++;
		t = c0;
		if (dep > t) {
			t = dep;
			o->why = PMR_SCHED_DEP;
			o->culprit = dw;
		}
		for (;;) {
			unsigned busy, u;

			if (t != cur) {
				cur = t;
				nused = 0;
				memset(used, 0, sizeof(used));
			}
			if (nused >= c->issue_width) {
				t++;
				if (o->why == PMR_SCHED_NONE)
					o->why = PMR_SCHED_WIDTH;
				continue;
			}
			busy = used[p];
			for (u = 0; u < nlong[p];)
				if (longu[p][u] <= t)
					longu[p][u] = longu[p][--nlong[p]];
				else
					u++;
			busy += nlong[p];
			if (busy >= nfu[p]) {
				t++;
				o->why = PMR_SCHED_FU;
				o->culprit = lastu[p];
				continue;
			}
			break;
		}
		nused++;
		if (ot.occupy > 1 && nlong[p] < 8)
			longu[p][nlong[p]++] = (uint64_t)t + ot.occupy;
		else
			used[p]++;
		lastu[p] = (int32_t)k;
		o->t = t;
		o->M = k == 0 ? t + 1 : t - out[k - 1].t;
		if (k == npre && taken && o->M == 0)
			o->M = 1;
		o->stall = t - c0;
		if (o->stall == 0) {
			o->why = PMR_SCHED_NONE;
			o->culprit = -1;
		}
		for (j = 0; j < si[k].ndst && j < PMR_INSN_MAXDST; j++) {
			unsigned r = si[k].dst[j] % NREG;

			rt[r] = t + ot.hit + 1;
			wr[r] = (int32_t)k;
		}
	}
	/* leave the table clear for the next block */
	for (k = 0; k < n; k++)
		for (j = 0; j < si[k].ndst && j < PMR_INSN_MAXDST; j++)
			rt[si[k].dst[j] % NREG] = 0;
}
