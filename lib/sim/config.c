/*
 * config.c: pmsim machine configurations: the compiled-in presets, the
 * "key = value" settings (-O, -c file), the canonical text printed by
 * --print-config and its digest, and the idealizations of icost Table 1.
 *
 * One table lists every key with its field, range and meaning; the presets are
 * complete struct initializers whose sources are given in pmsim(1) (alpha21264:
 * the ProfileMe paper §2.1 and public 21264 facts; fields03: Fields et al.
 * MICRO-36, Table 6; champsim: ChampSim's default core, champsim_config.json;
 * alpha21164: the 21164 of DCPI's AlphaStation, Digital's public papers).
 * A value marked [X] in the comments is our choice where the source is silent.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "util/cli.h"

struct key {
	const char *name;
	unsigned short off;
	unsigned min, max;
	const char *desc;
	/* a key added after pmr 1.4: left out of the canonical text and
	 * the digest while 0, so that the machines that came before it
	 * keep their text and digest */
	int late;
};

#define K(name, min, max, desc) \
	{ #name, offsetof(struct pmr_sim_config, name), min, max, desc, 0 }
#define KL(name, min, max, desc) \
	{ #name, offsetof(struct pmr_sim_config, name), min, max, desc, 1 }

static const struct key keys[] = {
	K(fetch_width, 1, 64, "instructions fetched per cycle"),
	K(fetch_block, 0, 4096, "aligned fetch block in bytes (0: none)"),
	K(fetch_taken, 1, 64, "taken transfers that end a fetch cycle"),
	K(fetchq, 1, 1024, "fetch queue entries (fetch to map)"),
	K(frontend, 1, 100, "cycles from fetch to map"),
	K(wrong_path, 0, 1, "fetch down a mispredicted path (0: stall)"),
	K(bp, 0, PMR_SIM_BP_CHAMPSIM, "predictor: bimodal gshare tournament "
	    "perfect combined champsim"),
	K(bp_bimodal, 16, 1u << 24, "bimodal / meta 2-bit counters"),
	K(bp_gshare, 16, 1u << 24, "gshare / global 2-bit counters"),
	K(bp_ghist, 1, 32, "global history bits"),
	K(bp_local, 16, 1u << 20, "local histories (tournament)"),
	K(bp_lhist, 1, 20, "bits per local history (tournament)"),
	K(bp_choice, 16, 1u << 24, "choice counters (tournament)"),
	K(btb, 1, 1u << 20, "BTB entries"),
	K(btb_assoc, 1, 64, "BTB ways"),
	K(btb_penalty, 0, 100, "decode redirect when a taken direct "
	    "transfer misses in the BTB"),
	K(ras, 1, 1024, "return address stack entries"),
	K(redirect, 0, 100, "cycles from mispredict resolution to refetch"),
	K(map_width, 1, 64, "instructions mapped per cycle"),
	K(rob, 4, 8192, "in-flight instructions (mapped, not retired)"),
	K(iq_int, 1, 8192, "integer issue queue entries"),
	K(iq_fp, 1, 8192, "floating-point issue queue entries"),
	K(regs_int, 1, 8192, "integer rename registers"),
	K(regs_fp, 1, 8192, "floating-point rename registers"),
	K(lq, 1, 8192, "load queue entries"),
	K(sq, 1, 8192, "store queue entries"),
	K(issue_width, 1, 64, "instructions issued per cycle"),
	KL(inorder, 0, 1, "issue in program order (shown only when 1)"),
	K(n_alu, 1, 64, "integer ALUs (also branches)"),
	K(lat_alu, 0, 1000, "integer ALU latency"),
	K(n_imul, 1, 64, "integer multipliers (also divides)"),
	K(lat_imul, 0, 1000, "integer multiply latency"),
	K(lat_idiv, 0, 1000, "integer divide latency"),
	K(n_fadd, 1, 64, "FP adders"),
	K(lat_fadd, 0, 1000, "FP add latency"),
	K(n_fmul, 1, 64, "FP multipliers (also divides)"),
	K(lat_fmul, 0, 1000, "FP multiply latency"),
	K(lat_fdiv, 0, 1000, "FP divide latency"),
	K(n_mem, 1, 64, "load/store ports"),
	K(load_early, 0, 1, "loads ready to retire before their data"),
	K(sp_fold, 0, 1, "stack engine: memory ops and transfers do not "
	    "write rsp"),
	K(mem_order, 0, 1, "loads pass older stores, replay trap on a "
	    "violation (0: perfect)"),
	K(retire_width, 1, 64, "instructions retired per cycle"),
	K(line, 16, 4096, "cache line bytes (power of 2)"),
	K(page, 512, 1u << 30, "page bytes (power of 2)"),
	K(l1i_size, 1024, 1u << 30, "L1-I bytes"),
	K(l1i_assoc, 1, 64, "L1-I ways"),
	K(l1d_size, 1024, 1u << 30, "L1-D bytes"),
	K(l1d_assoc, 1, 64, "L1-D ways"),
	K(l1d_lat, 0, 1000, "load-to-use latency of an L1-D hit"),
	K(l2_size, 1024, 1u << 30, "L2 bytes"),
	K(l2_assoc, 1, 64, "L2 ways"),
	K(l2_lat, 0, 10000, "load-to-use latency of an L2 hit"),
	K(l3_size, 0, 1u << 30, "L3 bytes (0: no L3)"),
	K(l3_assoc, 1, 64, "L3 ways"),
	K(l3_lat, 0, 10000, "load-to-use latency of an L3 hit"),
	K(mem_lat, 0, 100000, "load-to-use latency from memory"),
	K(mem_bus, 0, 100000, "cycles the memory bus is busy per line "
	    "(0: unlimited bandwidth)"),
	K(dram_banks, 0, 4096, "DRAM banks, each with an open row (0: no "
	    "row model; power of 2)"),
	K(dram_row, 64, 1u << 30, "bytes of address space per DRAM row "
	    "number (power of 2)"),
	K(dram_closed, 0, 100000, "extra cycles when the bank has no open "
	    "row"),
	K(dram_conflict, 0, 100000, "extra cycles when the bank has another "
	    "row open"),
	K(mshr, 1, 1024, "outstanding L1-D line misses"),
	K(itlb, 1, 1u << 20, "ITLB entries"),
	K(dtlb, 1, 1u << 20, "DTLB entries"),
	K(tlb_assoc, 1, 64, "TLB ways"),
	K(tlb_lat, 0, 100000, "TLB miss latency"),
	K(fault_lat, 0, 100000, "extra latency of the first touch of a page"),
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static const char *bp_names[] = { "bimodal", "gshare", "tournament",
	"perfect", "combined", "champsim" };

/*
 * Alpha 21264 (ProfileMe's machine).  Public 21264 facts (the ProfileMe paper
 * §2.1 and the 21264 hardware reference): 4-wide fetch of aligned 16-byte
 * blocks, 80 in flight, 20/15-entry queues, 80 int / 72 fp physical registers
 * (40 rename each), 4 sustained issue, 64 KB 2-way L1s, 3-cycle load use,
 * tournament predictor (1K x 10-bit local, 12-bit global, 4K global and choice
 * counters), 7-cycle minimum mispredict penalty (map F+2, issue F+3, resolve
 * F+4, refetch F+7), 32/32 LQ/SQ, 8 MAF entries, 8 KB pages, loads issued ahead
 * of stores with replay traps and a store-wait table cleared every 16384
 * cycles. L2 (board cache), memory, TLB miss, FU counts are [X].
 */
static const struct pmr_sim_config alpha21264 = {
	.name = "alpha21264",
	.fetch_width = 4, .fetch_block = 16, .fetch_taken = 1, .fetchq = 8,
	.frontend = 2, .wrong_path = 1,
	.bp = PMR_SIM_BP_TOURNAMENT, .bp_bimodal = 4096, .bp_gshare = 4096,
	.bp_ghist = 12, .bp_local = 1024, .bp_lhist = 10, .bp_choice = 4096,
	.btb = 1024, .btb_assoc = 2, .btb_penalty = 1, .ras = 32,
	.redirect = 3,
	.map_width = 4, .rob = 80, .iq_int = 20, .iq_fp = 15,
	.regs_int = 40, .regs_fp = 40, .lq = 32, .sq = 32,
	.issue_width = 4, .n_alu = 4, .lat_alu = 1, .n_imul = 1,
	.lat_imul = 7, .lat_idiv = 20, .n_fadd = 1, .lat_fadd = 4,
	.n_fmul = 1, .lat_fmul = 4, .lat_fdiv = 15, .n_mem = 2,
	.load_early = 1, .sp_fold = 0, .mem_order = 1, .retire_width = 8,
	.line = 64, .page = 8192,
	.l1i_size = 65536, .l1i_assoc = 2,
	.l1d_size = 65536, .l1d_assoc = 2, .l1d_lat = 3,
	.l2_size = 2 << 20, .l2_assoc = 1, .l2_lat = 15,
	.l3_size = 0, .l3_assoc = 1, .l3_lat = 0,
	.mem_lat = 100, .mem_bus = 0, .dram_banks = 0, .dram_row = 8192,
	.dram_closed = 0, .dram_conflict = 0, .mshr = 8,
	.itlb = 128, .dtlb = 128, .tlb_assoc = 8, .tlb_lat = 30,
	.fault_lat = 0,
};

/*
 * Fields et al. MICRO-36, Table 6: 64-entry window, 6-way issue,
 * 15-cycle pipeline (frontend 10 + redirect 3 + issue and execute give a
 * 15-cycle minimum mispredict loop [X]), fetch stops at the second taken
 * branch, 8K bimodal / 8K gshare / 8K meta, 4K 2-way BTB, 64-entry RAS,
 * 32 KB 2-way L1s with 2 cycles, 1 MB 4-way L2 with 12, memory 100,
 * 128/64-entry D/ITLB with 30-cycle misses, 6 ALU (1), 2 MULT (3), 4 FP
 * ALU (2), 2 FP MULT/DIV (4/12), 3 LD/ST ports.  Fetch and commit width 6,
 * queues = window, line 64 B, 16 MSHRs are [X]; rename registers 6 per
 * window entry (every destination of 64 instructions: a SimpleScalar RUU
 * entry holds its results, so only the window binds, as in the paper's
 * graph, whose window edge is the only one for these); the fetch queue holds
 * the instructions of the 10 front-end stages (6 x 10 = 60) and more, so
 * that it never throttles fetch below its width (64 [X]).
 */
static const struct pmr_sim_config fields03 = {
	.name = "fields03",
	.fetch_width = 6, .fetch_block = 0, .fetch_taken = 2, .fetchq = 64,
	.frontend = 10, .wrong_path = 1,
	.bp = PMR_SIM_BP_COMBINED, .bp_bimodal = 8192, .bp_gshare = 8192,
	.bp_ghist = 13, .bp_local = 1024, .bp_lhist = 10, .bp_choice = 8192,
	.btb = 4096, .btb_assoc = 2, .btb_penalty = 2, .ras = 64,
	.redirect = 3,
	.map_width = 6, .rob = 64, .iq_int = 64, .iq_fp = 64,
	.regs_int = 384, .regs_fp = 384, .lq = 64, .sq = 64,
	.issue_width = 6, .n_alu = 6, .lat_alu = 1, .n_imul = 2,
	.lat_imul = 3, .lat_idiv = 12, .n_fadd = 4, .lat_fadd = 2,
	.n_fmul = 2, .lat_fmul = 4, .lat_fdiv = 12, .n_mem = 3,
	.load_early = 0, .sp_fold = 0, .retire_width = 6,
	.line = 64, .page = 4096,
	.l1i_size = 32768, .l1i_assoc = 2,
	.l1d_size = 32768, .l1d_assoc = 2, .l1d_lat = 2,
	.l2_size = 1 << 20, .l2_assoc = 4, .l2_lat = 12,
	.l3_size = 0, .l3_assoc = 1, .l3_lat = 0,
	.mem_lat = 100, .mem_bus = 0, .dram_banks = 0, .dram_row = 8192,
	.dram_closed = 0, .dram_conflict = 0, .mshr = 16,
	.itlb = 64, .dtlb = 128, .tlb_assoc = 4, .tlb_lat = 30,
	.fault_lat = 0,
};

/*
 * ChampSim's default core (champsim-core.md 1, 4-7, 12): fetch 6, no
 * wrong-path fetch (fetch stalls until resolve + 1), ROB 352, LQ 128,
 * SQ 72, scheduler 128, execute 4, 2 load ports, retire 5, bimodal 16K,
 * BTB 1024x8, RAS 64; every op 1 cycle; load-to-use L1D 5, L2C 14, LLC 30,
 * DRAM about 187 (measured chases); 48 KB 12-way L1D, 32 KB 8-way L1I,
 * 512 KB 8-way L2, 2 MB 16-way LLC; 16 L1D MSHRs; 64-entry TLBs.
 * bp champsim is branch/bimodal and btb/basic_btb (bpred.c); a direct
 * mispredict resolved at decode lets fetch resume 7 cycles after the
 * read (a DIB miss decodes 6 cycles after it, then 1 of penalty):
 * btb_penalty 6.  wrong_path 0 gives ChampSim's front end (core.c).
 * First touches cost 2 minor faults of 200 cycles (src/vmem.cc).  The
 * 128 physical registers become 96 rename registers and the STLB and
 * page walk of a touched page a 10-cycle TLB miss [X].
 */
static const struct pmr_sim_config champsim = {
	.name = "champsim",
	.fetch_width = 6, .fetch_block = 0, .fetch_taken = 1, .fetchq = 64,
	.frontend = 5, .wrong_path = 0,
	.bp = PMR_SIM_BP_CHAMPSIM, .bp_bimodal = 16384, .bp_gshare = 4096,
	.bp_ghist = 12, .bp_local = 1024, .bp_lhist = 10, .bp_choice = 4096,
	.btb = 8192, .btb_assoc = 8, .btb_penalty = 6, .ras = 64,
	.redirect = 1,
	.map_width = 6, .rob = 352, .iq_int = 128, .iq_fp = 128,
	.regs_int = 96, .regs_fp = 96, .lq = 128, .sq = 72,
	.issue_width = 4, .n_alu = 4, .lat_alu = 1, .n_imul = 4,
	.lat_imul = 1, .lat_idiv = 1, .n_fadd = 4, .lat_fadd = 1,
	.n_fmul = 4, .lat_fmul = 1, .lat_fdiv = 1, .n_mem = 2,
	.load_early = 0, .sp_fold = 1, .retire_width = 5,
	.line = 64, .page = 4096,
	.l1i_size = 32768, .l1i_assoc = 8,
	.l1d_size = 49152, .l1d_assoc = 12, .l1d_lat = 5,
	.l2_size = 524288, .l2_assoc = 8, .l2_lat = 14,
	.l3_size = 2 << 20, .l3_assoc = 16, .l3_lat = 30,
	.mem_lat = 187, .mem_bus = 10, .dram_banks = 32,
	.dram_row = 262144, .dram_closed = 60, .dram_conflict = 120,
	.mshr = 16,
	.itlb = 64, .dtlb = 64, .tlb_assoc = 4, .tlb_lat = 10,
	.fault_lat = 400,
};

/*
 * Alpha 21164 (DCPI's machine: an AlphaStation 500 5/333, Anderson et al.,
 * SOSP '97).  Public 21164 facts (Edmondson et al., Digital Technical
 * Journal 7(1), 1995; the 21164 hardware reference and evaluation-board
 * manuals): in-order issue of up to 4 a cycle from an aligned 16-byte block
 * to 2 integer pipes (E0, E1: both load, E1 branches, E0 multiplies and
 * stores) and 2 FP pipes (add, multiply); 8 KB direct-mapped L1-I and L1-D
 * of 32-byte lines, 2-cycle load use; 96 KB 3-way on-chip S-cache; an
 * optional direct-mapped board cache (B-cache); 2048 2-bit branch counters
 * beside the I-cache lines, a 12-entry return stack, about 5 cycles lost to
 * a mispredict; 48-entry ITB, 64-entry DTB, 8 KB pages; a 6-entry miss
 * address file, loads that hit under misses.  Approximations [X]: the S-cache
 * (8) and B-cache (15, 2 MB) latencies, memory (90), TLB miss (25: a PALcode
 * fill), the window (32 in flight, 8-entry queues: the 21164 has no ROB,
 * only its instruction buffers), multiply 12 (8 to 16 by operand) and divide
 * latencies, the BTB (the 21164 takes targets from the decoded line: 2048
 * entries, one bubble on a taken transfer), one line size for all levels
 * (the S- and B-cache lines are 64 bytes), and both TLBs 16-way (48 entries
 * round down to 32).  Its slotting rules (which pipe an instruction can go
 * to, a block issued whole before the next) are not modelled: pools are
 * 2 ALUs, 1 multiplier, 1 FP adder, 1 FP multiplier and 2 memory ports.
 */
static const struct pmr_sim_config alpha21164 = {
	.name = "alpha21164",
	.fetch_width = 4, .fetch_block = 16, .fetch_taken = 1, .fetchq = 8,
	.frontend = 2, .wrong_path = 1,
	.bp = PMR_SIM_BP_BIMODAL, .bp_bimodal = 2048, .bp_gshare = 2048,
	.bp_ghist = 11, .bp_local = 1024, .bp_lhist = 10, .bp_choice = 2048,
	.btb = 2048, .btb_assoc = 1, .btb_penalty = 1, .ras = 12,
	.redirect = 1,
	.map_width = 4, .rob = 32, .iq_int = 8, .iq_fp = 8,
	.regs_int = 32, .regs_fp = 32, .lq = 8, .sq = 6,
	.issue_width = 4, .inorder = 1, .n_alu = 2, .lat_alu = 1,
	.n_imul = 1, .lat_imul = 12, .lat_idiv = 60, .n_fadd = 1,
	.lat_fadd = 4, .n_fmul = 1, .lat_fmul = 4, .lat_fdiv = 22,
	.n_mem = 2, .load_early = 1, .sp_fold = 0, .mem_order = 0,
	.retire_width = 4,
	.line = 32, .page = 8192,
	.l1i_size = 8192, .l1i_assoc = 1,
	.l1d_size = 8192, .l1d_assoc = 1, .l1d_lat = 2,
	.l2_size = 98304, .l2_assoc = 3, .l2_lat = 8,
	.l3_size = 2 << 20, .l3_assoc = 1, .l3_lat = 15,
	.mem_lat = 90, .mem_bus = 0, .dram_banks = 0, .dram_row = 8192,
	.dram_closed = 0, .dram_conflict = 0, .mshr = 6,
	.itlb = 48, .dtlb = 64, .tlb_assoc = 16, .tlb_lat = 25,
	.fault_lat = 0,
};

static const struct pmr_sim_config *const presets[] = {
	&alpha21264, &fields03, &champsim, &alpha21164
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

int
pmr_sim_config_preset(struct pmr_sim_config *c, const char *name)
{
	unsigned i;

	for (i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i]->name, name) == 0) {
			*c = *presets[i];
			return PMR_OK;
		}
	return PMR_EINVAL;
}

const char *
pmr_sim_preset_name(unsigned i)
{
	return i < NPRESETS ? presets[i]->name : NULL;
}

static unsigned *
field(struct pmr_sim_config *c, const struct key *k)
{
	return (unsigned *)((char *)c + k->off);
}

static unsigned
cfield(const struct pmr_sim_config *c, const struct key *k)
{
	return *(const unsigned *)((const char *)c + k->off);
}

int
pmr_sim_config_set(struct pmr_sim_config *c, const char *key,
    const char *value, char *errbuf, size_t errlen)
{
	const struct key *k = NULL;
	const char *e = NULL;
	long long v;
	unsigned i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, key) == 0)
			k = &keys[i];
	if (k == NULL) {
		snprintf(errbuf, errlen, "unknown key '%s'", key);
		return PMR_EINVAL;
	}
	if (strcmp(key, "bp") == 0) {
		for (i = 0; i < sizeof(bp_names) / sizeof(bp_names[0]); i++)
			if (strcmp(value, bp_names[i]) == 0) {
				c->bp = i;
				goto done;
			}
		if (pmr_strtonum(value, k->min, k->max, &e), e != NULL) {
			size_t n = (size_t)snprintf(errbuf, errlen, "bp: value "
			    "'%s' is not a predictor (", value);
			for (i = 0; i < sizeof(bp_names) / sizeof(bp_names[0]);
			    i++)
				if (n < errlen)
					n += (size_t)snprintf(errbuf + n,
					    errlen - n, "%s%s", i ? ", " : "",
					    bp_names[i]);
			if (n < errlen)
				snprintf(errbuf + n, errlen - n, ")");
			return PMR_EINVAL;
		}
	}
	v = pmr_strtonum(value, k->min, k->max, &e);
	if (e != NULL) {
		snprintf(errbuf, errlen, "%s: value '%s' is %s (%u..%u)", key,
		    value, e, k->min, k->max);
		return PMR_EINVAL;
	}
	*field(c, k) = (unsigned)v;
done:
	return PMR_OK;
}

int
pmr_sim_config_setkv(struct pmr_sim_config *c, const char *kv, char *errbuf,
    size_t errlen)
{
	char key[64];
	const char *eq = strchr(kv, '=');
	size_t n;

	if (eq == NULL || (n = (size_t)(eq - kv)) == 0 || n >= sizeof(key)) {
		snprintf(errbuf, errlen, "'%s' is not key=value", kv);
		return PMR_EINVAL;
	}
	memcpy(key, kv, n);
	key[n] = '\0';
	return pmr_sim_config_set(c, key, eq + 1, errbuf, errlen);
}

/* Trims leading and trailing blanks of s in place; returns the start. */
static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int
pmr_sim_config_load(struct pmr_sim_config *c, const char *path,
    char *errbuf, size_t errlen)
{
	FILE *f;
	int rc;

	if ((f = fopen(path, "r")) == NULL)
		return PMR_EIO;
	rc = pmr_sim_config_read(c, f, errbuf, errlen);
	fclose(f);
	return rc;
}

int
pmr_sim_config_text(struct pmr_sim_config *c, const void *text, size_t n,
    char *errbuf, size_t errlen)
{
	FILE *f;
	int rc;

	if (n == 0) {
		snprintf(errbuf, errlen, "empty");
		return PMR_ECORRUPT;
	}
	if (pmr_sim_config_preset(c, "fields03") != 0 ||
	    (f = fmemopen((void *)text, n, "r")) == NULL)
		return PMR_ENOMEM;
	rc = pmr_sim_config_read(c, f, errbuf, errlen);
	fclose(f);
	return rc;
}

int
pmr_sim_config_read(struct pmr_sim_config *c, FILE *f, char *errbuf,
    size_t errlen)
{
	char line[512], msg[256];
	unsigned lineno = 0;
	int rc = PMR_OK;

	while (fgets(line, sizeof(line), f) != NULL) {
		char *s, *eq, *hash;

		lineno++;
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		s = trim(line);
		if (*s == '\0')
			continue;
		if ((eq = strchr(s, '=')) == NULL) {
			snprintf(errbuf, errlen, "line %u: expected 'key = "
			    "value'", lineno);
			rc = PMR_EINVAL;
			break;
		}
		*eq = '\0';
		if (pmr_sim_config_set(c, trim(s), trim(eq + 1), msg,
		    sizeof(msg)) != PMR_OK) {
			snprintf(errbuf, errlen, "line %u: %s", lineno, msg);
			rc = PMR_EINVAL;
			break;
		}
	}
	if (rc == PMR_OK && ferror(f))
		rc = PMR_EIO;
	return rc;
}

static int
pow2(unsigned v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

int
pmr_sim_config_check(const struct pmr_sim_config *c, char *errbuf,
    size_t errlen)
{
	const char *why = NULL;

	if (!pow2(c->line))
		why = "line must be a power of 2";
	else if (!pow2(c->page) || c->page < c->line)
		why = "page must be a power of 2 of at least one line";
	else if (c->dram_banks != 0 && !pow2(c->dram_banks))
		why = "dram_banks must be 0 or a power of 2";
	else if (!pow2(c->dram_row) || c->dram_row < c->line)
		why = "dram_row must be a power of 2 of at least one line";
	else if (c->fetch_block != 0 && !pow2(c->fetch_block))
		why = "fetch_block must be 0 or a power of 2";
	else if (c->l1i_size < c->line * c->l1i_assoc ||
	    c->l1d_size < c->line * c->l1d_assoc ||
	    c->l2_size < c->line * c->l2_assoc ||
	    (c->l3_size != 0 && c->l3_size < c->line * c->l3_assoc))
		why = "a cache is smaller than one set";
	else if (c->itlb < c->tlb_assoc || c->dtlb < c->tlb_assoc)
		why = "a TLB is smaller than one set";
	else if (c->btb < c->btb_assoc)
		why = "btb is smaller than one set";
	if (why != NULL) {
		snprintf(errbuf, errlen, "%s", why);
		return PMR_EINVAL;
	}
	return PMR_OK;
}

int
pmr_sim_config_write(const struct pmr_sim_config *c, FILE *f, int comments)
{
	unsigned i;

	for (i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		char val[32];
		int n;

		if (k->late && cfield(c, k) == 0)
			continue;
		if (k->off == offsetof(struct pmr_sim_config, bp))
			snprintf(val, sizeof(val), "%s", bp_names[c->bp]);
		else
			snprintf(val, sizeof(val), "%u", cfield(c, k));
		if (comments)
			n = fprintf(f, "%-12s = %-10s # %s\n", k->name, val,
			    k->desc);
		else
			n = fprintf(f, "%s = %s\n", k->name, val);
		if (n < 0)
			return -1;
	}
	return 0;
}

uint64_t
pmr_sim_config_digest(const struct pmr_sim_config *c)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned i;

	for (i = 0; i < NKEYS; i++) {
		char buf[96];
		const char *p;

		if (keys[i].late && cfield(c, &keys[i]) == 0)
			continue;
		snprintf(buf, sizeof(buf), "%s = %u\n", keys[i].name,
		    cfield(c, &keys[i]));
		for (p = buf; *p != '\0'; p++) {
			h ^= (unsigned char)*p;
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

static const char *ideal_names[] = { "dl1", "dmiss", "imiss", "bmisp",
	"win", "bw", "shalu", "lgalu" };

unsigned
pmr_sim_ideal_byname(const char *name)
{
	unsigned i;

	for (i = 0; i < sizeof(ideal_names) / sizeof(ideal_names[0]); i++)
		if (strcmp(name, ideal_names[i]) == 0)
			return 1u << i;
	return 0;
}

const char *
pmr_sim_ideal_name(unsigned bit)
{
	unsigned i;

	for (i = 0; i < sizeof(ideal_names) / sizeof(ideal_names[0]); i++)
		if (bit == 1u << i)
			return ideal_names[i];
	return "?";
}

void
pmr_sim_config_idealize(struct pmr_sim_config *c, unsigned m)
{
	if (m & PMR_SIM_IDEAL_BMISP)
		c->bp = PMR_SIM_BP_PERFECT;
	if (m & PMR_SIM_IDEAL_WIN) {
		/* icost Table 1: "infinite" window = 20x the baseline */
		c->rob *= 20;
		c->iq_int *= 20;
		c->iq_fp *= 20;
		c->regs_int *= 20;
		c->regs_fp *= 20;
		c->lq *= 20;
		c->sq *= 20;
		c->fetchq *= 20;
	}
	if (m & PMR_SIM_IDEAL_BW) {
		c->fetch_width = c->map_width = c->issue_width = 64;
		c->retire_width = 64;
		c->fetch_block = 0;
		c->fetch_taken = 64;
		c->n_alu = c->n_imul = c->n_fadd = c->n_fmul = 64;
		c->n_mem = 64;
	}
	if (m & PMR_SIM_IDEAL_DL1)
		c->l1d_lat = 0;
	if (m & PMR_SIM_IDEAL_SHALU)
		c->lat_alu = 0;
	if (m & PMR_SIM_IDEAL_LGALU)
		c->lat_imul = c->lat_idiv = c->lat_fadd = c->lat_fmul =
		    c->lat_fdiv = 0;
	/* dmiss and imiss act in the caches (core.c) */
}
