/*
 * test_trace.c: unit tests of the x86-64 decoder and the trace readers.
 *
 * Decoder tests decode hand-written byte snippets and check class,
 * registers (as sets of names; '*' marks an address register), memory
 * accesses ("L8,S8": loads first) and targets exactly.  Reader tests use
 * tests/data/trace/ and the external traces in tests/data/ext-traces (or
 * $PM_SHARED/ext-traces), which must exist: a missing one fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/pmr_internal.h"
#include "trace/trace.h"
#include "unit.h"

static char *
path_of(const char *dir, const char *name)
{
	static char buf[4][1024];
	static int k;
	const char *top = getenv("PM_TOP"), *shared = getenv("PM_SHARED");
	char *b = buf[k++ & 3];

	if (top == NULL)
		top = ".";
	if (strcmp(dir, "ext") == 0) {
		if (shared != NULL)
			snprintf(b, sizeof(buf[0]), "%s/ext-traces/%s", shared,
			    name);
		else
			snprintf(b, sizeof(buf[0]),
			    "%s/tests/data/ext-traces/%s", top, name);
	} else
		snprintf(b, sizeof(buf[0]), "%s/tests/data/trace/%s", top,
		    name);
	return b;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Formats a register list as sorted, comma-separated names. */
static const char *
regs(const uint16_t *r, unsigned n, unsigned addrmask, char *out,
    size_t len)
{
	char names[16][16], *p[16];
	unsigned i;

	out[0] = '\0';
	for (i = 0; i < n && i < 16; i++) {
		char b[16];

		snprintf(names[i], sizeof(names[i]), "%s%s",
		    pmr_insn_reg_name(PMR_ISA_X86_64, r[i], b, sizeof(b)),
		    (addrmask >> i) & 1 ? "*" : "");
		p[i] = names[i];
	}
	qsort(p, i, sizeof(p[0]), cmp_str);
	for (n = i, i = 0; i < n; i++) {
		strncat(out, p[i], len - strlen(out) - 1);
		if (i + 1 < n)
			strncat(out, ",", len - strlen(out) - 1);
	}
	return out;
}

static const char *
mems(const struct pmr_sinsn *si, char *out, size_t len)
{
	unsigned i;
	size_t o = 0;

	out[0] = '\0';
	for (i = 0; i < si->nmem && o < len; i++)
		o += (size_t)snprintf(out + o, len - o, "%s%c%u", i ? "," : "",
		    i < si->nload ? 'L' : 'S', si->msize[i]);
	return out;
}

static struct pmr_insn_decoder *dec;

/* Decodes hex at pc 0x1000 and checks everything about it. */
static void
check_insn(int line, const char *hex, const char *cls, const char *src,
    const char *dst, const char *mem, uint64_t target)
{
	unsigned char b[16];
	struct pmr_sinsn si;
	char buf[256];
	size_t n = 0;
	int r, err;

	if (dec == NULL)
		dec = pmr_insn_decoder_open(PMR_ISA_X86_64, &err);
	while (hex[0] != '\0' && hex[1] != '\0' && n < sizeof(b)) {
		unsigned v;

		sscanf(hex, "%2x", &v);
		b[n++] = (unsigned char)v;
		hex += 2;
	}
	si.id = 7;
	r = pmr_insn_decode(dec, 0x1000, b, n, &si);
	printf("# line %d: %s\n", line, pmr_insn_decoder_text(dec));
	CHECK_EQ(r, (long long)n);
	CHECK_EQ(si.len, (long long)n);
	CHECK_EQ(si.id, 7);
	CHECK_EQ_U64(si.pc, 0x1000);
	CHECK_STR(pmr_insn_class_name(si.cls), cls);
	CHECK_STR(regs(si.src, si.nsrc, si.src_addr, buf, sizeof(buf)), src);
	CHECK_STR(regs(si.dst, si.ndst, 0, buf, sizeof(buf)), dst);
	CHECK_STR(mems(&si, buf, sizeof(buf)), mem);
	CHECK_EQ_U64(si.target, target);
}

#define INSN(...) check_insn(__LINE__, __VA_ARGS__)

UNIT_TEST(decode_int)
{
	INSN("4801d8", "int", "rax,rbx", "flags,rax", "", 0);	/* add rax,rbx */
	INSN("31c0", "int", "", "flags,rax", "", 0);	/* xor eax,eax */
	INSN("488d4308", "int", "rbx*", "rax", "", 0);	/* lea rax,[rbx+8] */
	INSN("48c1e003", "int", "rax", "flags,rax", "", 0); /* shl rax,3 */
	INSN("89c8", "int", "rcx", "rax", "", 0);	/* mov eax,ecx (folded) */
	INSN("88e0", "int", "rax", "rax", "", 0);	/* mov al,ah */
	INSN("4d89c1", "int", "r8", "r9", "", 0);	/* mov r9,r8 */
	INSN("480f44c1", "int", "flags,rax,rcx", "rax", "", 0); /* cmove */
	INSN("0f94c0", "int", "flags", "rax", "", 0);	/* sete al */
	INSN("0f1f440000", "nop", "rax*", "", "", 0);	/* nop [rax+rax] */
	INSN("f30f1efa", "nop", "", "", "", 0);	/* endbr64 */
	INSN("0f0b", "other", "", "", "", 0);	/* ud2 */
}

UNIT_TEST(decode_muldiv_fp)
{
	INSN("480fafc3", "imul", "rax,rbx", "flags,rax", "", 0);
	INSN("48f7f1", "idiv", "rax,rcx,rdx", "flags,rax,rdx", "", 0);
	INSN("f20f58c1", "fadd", "xmm0,xmm1", "xmm0", "", 0);	/* addsd */
	INSN("f20f59c1", "fmul", "xmm0,xmm1", "xmm0", "", 0);	/* mulsd */
	INSN("f20f5ec1", "fdiv", "xmm0,xmm1", "xmm0", "", 0);	/* divsd */
	INSN("f20f51c1", "fdiv", "xmm1", "xmm0", "", 0);	/* sqrtsd */
	INSN("c4e2f1b9c2", "fmul", "xmm0,xmm1,xmm2", "xmm0", "", 0);
	INSN("f2480f2ac0", "fadd", "rax", "xmm0", "", 0);	/* cvtsi2sd */
	INSN("f20f590f", "fmul", "rdi*,xmm1", "xmm1", "L8", 0); /* mulsd x,[m] */
	INSN("c5f9efc0", "int", "", "xmm0", "", 0);	/* vpxor zero idiom */
}

UNIT_TEST(decode_memory)
{
	INSN("488b0510000000", "load", "", "rax", "L8", 0); /* rip-relative */
	INSN("89448b04", "store", "rax,rbx*,rcx*", "", "S4", 0);
	INSN("480110", "ldst", "rax*,rdx", "flags", "L8,S8", 0); /* add [rax] */
	INSN("483b03", "load", "rax,rbx*", "flags", "L8", 0);	/* cmp rax,[rbx] */
	INSN("f6470120", "load", "rdi*", "flags", "L1", 0);	/* test [rdi+1] */
	INSN("480f4403", "load", "flags,rax,rbx*", "rax", "L8", 0); /* cmove */
	INSN("64488b042528000000", "load", "fs*", "rax", "L8", 0);
	INSN("f0480fb10b", "ldst", "rax,rbx*,rcx", "flags,rax", "L8,S8", 0);
	INSN("48870a", "ldst", "rcx,rdx*", "rcx", "L8,S8", 0);	/* xchg */
	INSN("0f1808", "load", "rax*", "", "L1", 0);	/* prefetcht0 */
	INSN("d91b", "store", "rbx*", "fpsw", "S4", 0);	/* fstp */
}

UNIT_TEST(decode_stack)
{
	INSN("55", "store", "rbp,rsp*", "rsp", "S8", 0);	/* push rbp */
	INSN("5b", "load", "rsp*", "rbx,rsp", "L8", 0);	/* pop rbx */
	INSN("ff30", "ldst", "rax*,rsp*", "rsp", "L8,S8", 0);	/* push [rax] */
	INSN("8f00", "ldst", "rax*,rsp*", "rsp", "L8,S8", 0);	/* pop [rax] */
	INSN("c9", "load", "rbp*,rsp", "rbp,rsp", "L8", 0);	/* leave */
	INSN("9c", "store", "flags,rsp*", "rsp", "S8", 0);	/* pushfq */
}

UNIT_TEST(decode_branches)
{
	INSN("e8fb0f0000", "call", "rsp*", "rsp", "S8", 0x2000);
	INSN("ff5008", "call_ind", "rax*,rsp*", "rsp", "L8,S8", 0);
	INSN("ffd0", "call_ind", "rax,rsp*", "rsp", "S8", 0);	/* call rax */
	INSN("c3", "ret", "rsp*", "rsp", "L8", 0);
	INSN("7505", "br_cond", "flags", "", "", 0x1007);	/* jne */
	INSN("0f84fa0f0000", "br_cond", "flags", "", "", 0x2000); /* je rel32 */
	INSN("e3fe", "br_cond", "rcx", "", "", 0x1000);	/* jrcxz */
	INSN("ebfe", "jmp", "", "", "", 0x1000);	/* jmp $ */
	INSN("ffe0", "jmp_ind", "rax", "", "", 0);	/* jmp rax */
	INSN("ff2500100000", "jmp_ind", "", "", "L8", 0); /* jmp [rip+] */
	INSN("0f05", "syscall", "", "flags", "", 0);
}

UNIT_TEST(decode_string_simd)
{
	INSN("f3a4", "ldst", "flags,rcx,rdi*,rsi*", "rcx,rdi,rsi", "L1,S1", 0);
	INSN("f348ab", "store", "flags,rax,rcx,rdi*", "rcx,rdi", "S8", 0);
	INSN("0f1007", "load", "rdi*", "xmm0", "L16", 0);	/* movups x,[m] */
	INSN("0f1107", "store", "rdi*,xmm0", "", "S16", 0);	/* movups [m],x */
	INSN("c5fe6f0e", "load", "rsi*", "xmm1", "L32", 0);	/* vmovdqu ymm */
	INSN("f20f1000", "load", "rax*", "xmm0", "L8", 0);	/* movsd x,[m] */
	INSN("66480f7e07", "store", "rdi*,xmm0", "", "S8", 0); /* movq [m],x */
}

UNIT_TEST(decode_flags_and_bad)
{
	struct pmr_sinsn si;
	unsigned char bad[2] = { 0x06, 0x00 };	/* push es: invalid in 64 */
	unsigned char rep[2] = { 0xf3, 0xa4 };
	int err;

	if (dec == NULL)
		dec = pmr_insn_decoder_open(PMR_ISA_X86_64, &err);
	CHECK(pmr_insn_decoder_open(PMR_ISA_AARCH64, &err) == NULL);
	CHECK_EQ(err, PMR_EINVAL);
	si.id = 0;
	CHECK_EQ(pmr_insn_decode(dec, 0x10, bad, 1, &si), PMR_ECORRUPT);
	CHECK_EQ(si.cls, PMR_OP_OTHER);
	CHECK(si.flags & PMR_SI_BADDEC);
	CHECK_EQ(pmr_insn_decode(dec, 0x10, rep, 2, &si), 2);
	CHECK(si.flags & PMR_SI_REP);
	CHECK(pmr_insn_class_is_branch(PMR_OP_RET));
	CHECK(!pmr_insn_class_is_branch(PMR_OP_SYSCALL));
	CHECK_STR(pmr_insn_class_name(PMR_OP_LDST), "ldst");
	pmr_insn_decoder_close(dec);
	dec = NULL;
}

/*
 * Builds a ChampSim record with the registers listed in dst and src
 * ("6,26"), nload loads, nstore stores and the taken byte, then checks the
 * class and outcome that ChampSim would derive.
 */
static void
cs_case(int line, const char *dst, const char *src, int nload, int nstore,
    int taken, const char *cls, int etaken)
{
	unsigned char r[64];
	const char *p;
	char *end;
	int i, t;

	memset(r, 0, sizeof(r));
	pmr_put64(r, 0x400000);
	r[9] = (unsigned char)taken;
	for (i = 0, p = dst; *p != '\0' && i < 2; i++, p = end + (*end == ','))
		r[10 + i] = (unsigned char)strtoul(p, &end, 10);
	for (i = 0, p = src; *p != '\0' && i < 4; i++, p = end + (*end == ','))
		r[12 + i] = (unsigned char)strtoul(p, &end, 10);
	for (i = 0; i < nstore; i++)
		pmr_put64(r + 16 + 8 * i, 0x1000 + (unsigned)i);
	for (i = 0; i < nload; i++)
		pmr_put64(r + 32 + 8 * i, 0x2000 + (unsigned)i);
	printf("# line %d: dst %s src %s\n", line, dst, src);
	CHECK_STR(pmr_insn_class_name(pmr_champsim_class(r, &t)), cls);
	CHECK_EQ(t, etaken);
}

#define CS(...) cs_case(__LINE__, __VA_ARGS__)

UNIT_TEST(champsim_class)
{
	/* 6 = sp, 25 = flags, 26 = ip, others arbitrary */
	CS("26", "", 0, 0, 0, "jmp", 1);
	CS("26", "26", 0, 0, 0, "jmp", 1);
	CS("26", "9", 0, 0, 0, "jmp_ind", 1);
	CS("26", "25,26", 0, 0, 1, "br_cond", 1);
	CS("26", "25,26", 0, 0, 0, "br_cond", 0);
	CS("26", "9,26", 0, 0, 0, "br_cond", 0);	/* jrcxz */
	CS("6,26", "6,26", 0, 1, 0, "call", 1);
	CS("6,26", "6,26,9", 0, 1, 0, "call_ind", 1);
	CS("6,26", "6", 1, 0, 0, "ret", 1);
	CS("26", "6,25", 0, 0, 1, "other", 1);	/* BRANCH_OTHER */
	CS("9", "9", 1, 0, 1, "load", 0);
	CS("", "9", 0, 1, 0, "store", 0);
	CS("25", "", 1, 1, 0, "ldst", 0);
	CS("9,25", "9,10", 0, 0, 0, "other", 0);
}

static struct pmr_trace *
open_ok(const char *path, int fmt)
{
	char eb[512];
	int err = 0;
	struct pmr_trace *t = pmr_trace_open(path, fmt, &err, eb, sizeof(eb));

	if (t == NULL)
		printf("# %s: %s\n", path, eb);
	CHECK(t != NULL);
	return t;
}

struct counts {
	uint64_t n, cls[PMR_OP_NCLASS], taken[PMR_OP_NCLASS], mem, loads;
};

/* Counts the rest of t, whose next instruction has index first. */
static int
count(struct pmr_trace *t, uint64_t first, struct counts *c)
{
	struct pmr_dinsn di;
	int r;

	memset(c, 0, sizeof(*c));
	while ((r = pmr_trace_next(t, &di)) == 1) {
		CHECK_EQ_U64(di.seq, first + c->n);
		c->n++;
		c->cls[di.si->cls]++;
		c->taken[di.si->cls] += di.flags & PMR_DI_TAKEN;
		c->mem += di.nmem;
		c->loads += di.nload;
	}
	return r;
}

/* The hand count of the first 48 records (see tests/data/trace/README). */
static void
check_head48(const char *name, int fmt)
{
	struct pmr_trace *t = open_ok(path_of("data", name), fmt);
	struct pmr_dinsn di;
	struct counts c;

	if (t == NULL)
		return;
	CHECK_EQ(pmr_trace_format(t), PMR_TF_CHAMPSIM);
	CHECK_EQ(pmr_trace_next(t, &di), 1);	/* mov rdi,rsp */
	CHECK_EQ(di.si->cls, PMR_OP_OTHER);
	CHECK_EQ(di.si->len, 3);
	CHECK_EQ(pmr_trace_next(t, &di), 1);	/* call _dl_start */
	CHECK_EQ(di.si->cls, PMR_OP_CALL);
	CHECK_EQ_U64(di.next_pc, 0x7fbbbede6600);
	CHECK_EQ_U64(di.si->target, 0x7fbbbede6600);
	CHECK(di.flags & PMR_DI_TAKEN);
	CHECK_EQ(di.nmem, 1);
	CHECK_EQ(di.nload, 0);
	CHECK_EQ_U64(di.addr[0], 0x7ffeb4cc56d8);
	CHECK_EQ(count(t, 2, &c), 0);
	CHECK_EQ(c.n, 46);
	CHECK_EQ(c.cls[PMR_OP_BR_COND], 6);
	CHECK_EQ(c.taken[PMR_OP_BR_COND], 2);
	CHECK_EQ(c.cls[PMR_OP_JMP], 1);
	CHECK_EQ(c.cls[PMR_OP_LOAD], 3);
	CHECK_EQ(c.cls[PMR_OP_STORE], 12);
	CHECK_EQ(c.cls[PMR_OP_LDST], 1);
	CHECK_EQ(c.cls[PMR_OP_OTHER], 23);
	pmr_trace_close(t);
}

UNIT_TEST(champsim_slice)
{
	check_head48("simple_app.head48.champsim", PMR_TF_AUTO);
	check_head48("simple_app.head48.champsim.gz", PMR_TF_AUTO);
	check_head48("simple_app.head48.champsim", PMR_TF_CHAMPSIM);
}

UNIT_TEST(champsim_full)
{
	struct pmr_trace *t;
	struct counts c;

	t = open_ok(path_of("ext", "simple_app.champsim.xz"), PMR_TF_AUTO);
	if (t == NULL)
		return;
	CHECK_EQ(count(t, 0, &c), 0);
	CHECK_EQ(c.n, 136051);
	CHECK_EQ(c.cls[PMR_OP_BR_COND], 26297);
	CHECK_EQ(c.taken[PMR_OP_BR_COND], 9505);
	CHECK_EQ(c.cls[PMR_OP_JMP], 1184);
	CHECK_EQ(c.cls[PMR_OP_JMP_IND], 160);
	CHECK_EQ(c.cls[PMR_OP_CALL], 826);
	CHECK_EQ(c.cls[PMR_OP_CALL_IND], 59);
	CHECK_EQ(c.cls[PMR_OP_RET], 880);
	CHECK_EQ(c.cls[PMR_OP_LOAD], 29841);
	CHECK_EQ(c.cls[PMR_OP_STORE], 10380);
	CHECK_EQ(c.cls[PMR_OP_LDST], 712);
	CHECK_EQ(c.cls[PMR_OP_OTHER], 65712);
	CHECK_EQ(pmr_trace_nsinsn(t), 11374);
	pmr_trace_close(t);
}

UNIT_TEST(drmem_simple_app)
{
	struct pmr_trace *t;
	struct counts c;

	t = open_ok(path_of("ext", "drmemtrace.simple_app.trace.zip"),
	    PMR_TF_AUTO);
	if (t == NULL)
		return;
	CHECK_EQ(pmr_trace_format(t), PMR_TF_DRMEM);
	CHECK_EQ(count(t, 0, &c), 0);
	CHECK_EQ(c.n, 136051);
	CHECK_EQ(c.cls[PMR_OP_BR_COND], 26297);
	CHECK_EQ(c.taken[PMR_OP_BR_COND], 9505);
	CHECK_EQ(c.cls[PMR_OP_RET], 880);
	CHECK_EQ(c.cls[PMR_OP_SYSCALL], 31);
	/* 43,845 accesses, less the rep string steps beyond capacity */
	CHECK_EQ(c.mem, 43498);
	pmr_trace_close(t);
}

/*
 * The ChampSim and drmemtrace versions of simple_app hold the same
 * execution: same pcs, successors, branch outcomes and addresses (ChampSim
 * keeps at most 4 loads and 2 stores per instruction).
 */
UNIT_TEST(drmem_agrees_with_champsim)
{
	struct pmr_trace *a, *b;
	struct pmr_dinsn x, y;
	uint64_t n = 0, bad_pc = 0, bad_next = 0, bad_taken = 0, bad_mem = 0;
	uint64_t bad_br = 0;
	int ra, rb;

	a = open_ok(path_of("ext", "simple_app.champsim.xz"), PMR_TF_AUTO);
	b = open_ok(path_of("ext", "drmemtrace.simple_app.trace.zip"),
	    PMR_TF_AUTO);
	if (a == NULL || b == NULL)
		goto out;
	for (;;) {
		unsigned i, yl, ys, el, es;

		ra = pmr_trace_next(a, &x);
		rb = pmr_trace_next(b, &y);
		if (ra != 1 || rb != 1)
			break;
		n++;
		bad_pc += x.pc != y.pc;
		bad_next += x.next_pc != y.next_pc &&
		    !(x.flags & PMR_DI_NEXTUNK);
		bad_taken += (x.flags & PMR_DI_TAKEN) != (y.flags & PMR_DI_TAKEN);
		bad_br += pmr_insn_class_is_branch(x.si->cls) !=
		    pmr_insn_class_is_branch(y.si->cls);
		yl = y.nload;
		ys = (unsigned)(y.nmem - y.nload);
		el = yl < 4 ? yl : 4;
		es = ys < 2 ? ys : 2;
		if (x.nload != el || (unsigned)(x.nmem - x.nload) != es) {
			bad_mem++;
			continue;
		}
		for (i = 0; i < el; i++)
			bad_mem += x.addr[i] != y.addr[i];
		for (i = 0; i < es; i++)
			bad_mem += x.addr[el + i] != y.addr[yl + i];
	}
	CHECK_EQ(ra, 0);
	CHECK_EQ(rb, 0);
	CHECK_EQ(n, 136051);
	CHECK_EQ(bad_pc, 0);
	CHECK_EQ(bad_next, 0);
	CHECK_EQ(bad_taken, 0);
	CHECK_EQ(bad_br, 0);
	CHECK_EQ(bad_mem, 0);
out:
	pmr_trace_close(a);
	pmr_trace_close(b);
}

UNIT_TEST(drmem_allasm)
{
	struct pmr_trace *t;
	struct pmr_dinsn di;
	struct counts c;

	t = open_ok(path_of("ext", "drmemtrace.allasm_x86_64.trace.zip"),
	    PMR_TF_DRMEM);
	if (t == NULL)
		return;
	CHECK_EQ(pmr_trace_next(t, &di), 1);	/* and rsp, -16 */
	CHECK_EQ_U64(di.pc, 0x401000);
	CHECK_EQ(di.si->len, 4);
	CHECK_EQ(di.si->cls, PMR_OP_INT);
	CHECK_EQ_U64(di.next_pc, 0x401004);
	CHECK_EQ(count(t, 1, &c), 0);
	CHECK_EQ(c.n + 1, 133);
	CHECK_EQ(c.cls[PMR_OP_BR_COND], 16);
	CHECK_EQ(c.taken[PMR_OP_BR_COND], 15);
	CHECK_EQ(c.cls[PMR_OP_SYSCALL], 17);
	CHECK_EQ(pmr_trace_nsinsn(t), 13);
	pmr_trace_close(t);

	/* the same entries as one gzip stream (a .trace.gz), by content */
	t = open_ok(path_of("data", "allasm_x86_64.trace.gz"), PMR_TF_AUTO);
	if (t == NULL)
		return;
	CHECK_EQ(pmr_trace_format(t), PMR_TF_DRMEM);
	CHECK_EQ(count(t, 0, &c), 0);
	CHECK_EQ(c.n, 133);
	CHECK_EQ(c.taken[PMR_OP_BR_COND], 15);
	pmr_trace_close(t);
}

/* Opens (and reads) name; checks the error code and a message part. */
static void
check_bad(const char *name, int fmt, int code, const char *msg)
{
	struct pmr_trace *t;
	struct pmr_dinsn di;
	char eb[512];
	int err = 0, r;

	t = pmr_trace_open(path_of("data", name), fmt, &err, eb, sizeof(eb));
	if (t != NULL) {
		while ((r = pmr_trace_next(t, &di)) == 1)
			;
		err = r;
		snprintf(eb, sizeof(eb), "%s", pmr_trace_errmsg(t));
		CHECK_EQ(pmr_trace_next(t, &di), r);	/* sticky */
		pmr_trace_close(t);
	}
	printf("# %s: %d %s\n", name, err, eb);
	CHECK_EQ(err, code);
	CHECK(strstr(eb, msg) != NULL);
	CHECK(strstr(eb, name) != NULL);
}

UNIT_TEST(bad_inputs)
{
	check_bad("bad-size.champsim", PMR_TF_AUTO, PMR_ETRUNC,
	    "not a multiple of 64");
	check_bad("truncated.champsim.xz", PMR_TF_AUTO, PMR_ETRUNC,
	    "truncated");
	check_bad("notzip.trace.zip", PMR_TF_AUTO, PMR_EFORMAT,
	    "unknown trace format");
	check_bad("notzip.trace.zip", PMR_TF_DRMEM, PMR_EFORMAT,
	    "not a drmemtrace");
	check_bad("truncated.trace.zip", PMR_TF_AUTO, PMR_EFORMAT,
	    "not a zip archive");
	check_bad("nochunk.trace.zip", PMR_TF_AUTO, PMR_EFORMAT,
	    "no chunk.NNNN members");
	check_bad("noenc.trace.zip", PMR_TF_AUTO, PMR_EFORMAT,
	    "no instruction encodings");
	check_bad("no-such-file.champsim", PMR_TF_AUTO, PMR_EIO,
	    "No such file");
}

UNIT_TEST(formats)
{
	CHECK_EQ(pmr_trace_format_byname("champsim"), PMR_TF_CHAMPSIM);
	CHECK_EQ(pmr_trace_format_byname("drmemtrace"), PMR_TF_DRMEM);
	CHECK_EQ(pmr_trace_format_byname("pmr"), PMR_TF_PMR);
	CHECK_EQ(pmr_trace_format_byname("auto"), PMR_TF_AUTO);
	CHECK_EQ(pmr_trace_format_byname("nope"), -1);
	CHECK_STR(pmr_trace_format_name(PMR_TF_DRMEM), "drmemtrace");
}

/* --- the native records ------------------------------------------- */

static char tmpdir[64];

static const char *
tmp_path(const char *name)
{
	static char buf[4][128];
	static int k;
	char *b = buf[k++ & 3];

	if (tmpdir[0] == '\0') {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_trace.XXXXXX");
		if (mkdtemp(tmpdir) == NULL)
			snprintf(tmpdir, sizeof(tmpdir), "/tmp");
	}
	snprintf(b, sizeof(buf[0]), "%s/%s", tmpdir, name);
	return b;
}

static int
same_dinsn(const struct pmr_dinsn *a, const struct pmr_dinsn *b)
{
	unsigned i;
	int ok;

	ok = a->pc == b->pc && a->next_pc == b->next_pc &&
	    a->nmem == b->nmem && a->nload == b->nload && a->tid == b->tid &&
	    a->value == b->value && a->si->cls == b->si->cls &&
	    a->si->len == b->si->len && a->si->target == b->si->target &&
	    a->si->nsrc == b->si->nsrc && a->si->ndst == b->si->ndst &&
	    memcmp(a->si->bytes, b->si->bytes, a->si->len) == 0 &&
	    (a->flags & ~PMR_DI_TAKEN) == (b->flags & ~PMR_DI_TAKEN);
	/* outside branches, only ChampSim's "other" branches keep taken */
	if (pmr_insn_class_is_branch(a->si->cls))
		ok = ok && (a->flags & PMR_DI_TAKEN) == (b->flags & PMR_DI_TAKEN);
	for (i = 0; ok && i < a->nmem; i++)
		ok = a->addr[i] == b->addr[i];
	return ok;
}

/* Converts src to dst (a pmr file); returns instructions, or -1. */
static long long
convert(const char *src, const char *dst, long long *bytes)
{
	struct pmr_wopts o = { "test_trace", -1, 0, 0 };
	struct pmr_trace *t = open_ok(src, PMR_TF_AUTO);
	struct pmr_trace_writer *tw;
	struct pmr_writer *w;
	struct pmr_dinsn di;
	char eb[256];
	long long n = -1;
	FILE *f;
	int err = 0, r;

	if (t == NULL)
		return -1;
	w = pmr_writer_open(dst, &o, &err);
	CHECK(w != NULL);
	if (w == NULL)
		goto out;
	tw = pmr_trace_writer_new(w, &err);
	CHECK(tw != NULL);
	while ((r = pmr_trace_next(t, &di)) == 1)
		if (pmr_trace_write(tw, &di) < 0)
			break;
	CHECK_EQ(r, 0);
	n = (long long)pmr_trace_writer_count(tw);
	CHECK_EQ(pmr_trace_writer_finish(tw, eb, sizeof(eb)), PMR_OK);
	CHECK_EQ(pmr_writer_close(w, eb, sizeof(eb)), PMR_OK);
	if ((f = fopen(dst, "rb")) != NULL) {
		fseek(f, 0, SEEK_END);
		*bytes = ftell(f);
		fclose(f);
	}
out:
	pmr_trace_close(t);
	return n;
}

/* Reads a and b in step; returns how many instructions differ. */
static uint64_t
compare(const char *pa, const char *pb, uint64_t *n)
{
	struct pmr_trace *a = open_ok(pa, PMR_TF_AUTO);
	struct pmr_trace *b = open_ok(pb, PMR_TF_AUTO);
	struct pmr_dinsn x, y;
	uint64_t bad = 0;
	int ra = -1, rb = -1;

	*n = 0;
	while (a != NULL && b != NULL) {
		ra = pmr_trace_next(a, &x);
		rb = pmr_trace_next(b, &y);
		if (ra != 1 || rb != 1)
			break;
		if (!same_dinsn(&x, &y) && bad++ < 3)
			printf("# %s: instruction %llu at 0x%llx differs\n", pb,
			    (unsigned long long)*n, (unsigned long long)x.pc);
		++*n;
	}
	CHECK_EQ(ra, 0);
	CHECK_EQ(rb, 0);
	pmr_trace_close(a);
	pmr_trace_close(b);
	return bad;
}

UNIT_TEST(pmr_roundtrip_ext)
{
	static const char *const src[] = { "simple_app.champsim.xz",
		"drmemtrace.simple_app.trace.zip",
		"drmemtrace.allasm_x86_64.trace.zip" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		const char *out = tmp_path("rt.pmr.zst");
		long long bytes = 0, n;
		uint64_t m;

		n = convert(path_of("ext", src[i]), out, &bytes);
		printf("# %s: %lld instructions, %lld bytes, %.3f B/insn\n",
		    src[i], n, bytes, n > 0 ? (double)bytes / n : 0);
		CHECK_EQ(compare(path_of("ext", src[i]), out, &m), 0);
		CHECK_EQ(m, n);
		if (i < 2)
			CHECK(bytes < 1.2 * n);	/* 1.11 at zstd -3 */
		unlink(out);
	}
}

/* A synthetic program exercising every token stream. */
static const struct {
	uint64_t pc;
	const char *hex;
} prog[] = {
	{ 0x1000, "488b07" },		/* 0 mov rax,[rdi] */
	{ 0x1003, "488906" },		/* 1 mov [rsi],rax */
	{ 0x1006, "e8f50f0000" },	/* 2 call 0x2000 */
	{ 0x2000, "c3" },		/* 3 ret */
	{ 0x100b, "75f3" },		/* 4 jne 0x1000 */
	{ 0x100d, "f3a4" },		/* 5 rep movsb */
	{ 0x100f, "ffe0" },		/* 6 jmp rax */
	{ 0x3000, "90" },		/* 7 nop (signal handler) */
	{ 0x1000, "488b06" },		/* 8 mov rax,[rsi]: new code */
};

static struct pmr_sinsn prog_si[9];

static void
make_prog(void)
{
	struct pmr_insn_decoder *d;
	unsigned i, n;
	int err;

	d = pmr_insn_decoder_open(PMR_ISA_X86_64, &err);
	for (i = 0; i < 9; i++) {
		unsigned char b[16];
		const char *h = prog[i].hex;

		for (n = 0; h[0] != '\0'; h += 2) {
			unsigned v;

			sscanf(h, "%2x", &v);
			b[n++] = (unsigned char)v;
		}
		prog_si[i].id = i;
		CHECK_EQ(pmr_insn_decode(d, prog[i].pc, b, n, &prog_si[i]),
		    (long long)n);
	}
	pmr_insn_decoder_close(d);
}

/* Appends instruction k of prog with the given successor to v. */
static void
emit(struct pmr_dinsn *v, unsigned *n, unsigned k, uint64_t next,
    int taken, uint32_t tid)
{
	struct pmr_dinsn *di = &v[(*n)++];
	const struct pmr_sinsn *si = &prog_si[k];
	unsigned i;

	memset(di, 0, sizeof(*di));
	di->si = si;
	di->pc = si->pc;
	di->next_pc = next;
	di->tid = tid;
	di->flags = taken ? PMR_DI_TAKEN : 0;
	di->nmem = si->nmem;
	di->nload = si->nload;
	for (i = 0; i < si->nmem; i++) {
		di->addr[i] = 0x7000 + 8 * (*n % 7) + 64 * i;
		di->msize[i] = si->msize[i];
	}
	if (si->nload > 0 && (*n % 3) != 0) {
		di->flags |= PMR_DI_VALUE;
		di->value = (uint64_t)*n * 0x10001;
	}
}

UNIT_TEST(pmr_roundtrip_synthetic)
{
	static struct pmr_dinsn v[12000];
	struct pmr_wopts o = { "test_trace", 0, 0, 0 };
	const char *out = tmp_path("syn.pmr"), *cat = tmp_path("cat.pmr");
	struct pmr_trace_writer *tw;
	struct pmr_writer *w;
	struct pmr_trace *t;
	struct pmr_dinsn di;
	unsigned n = 0, i, it, pass;
	char eb[256], cmd[512];
	uint64_t bad = 0;
	int err = 0, r;

	make_prog();
	for (it = 0; it < 1000; it++) {
		uint32_t tid = it < 600 ? 1 : 2;

		emit(v, &n, 0, 0x1003, 0, tid);
		emit(v, &n, 1, it == 500 ? 0x3000 : 0x1006, 0, tid);
		if (it == 500)	/* a signal: the store did not fall through */
			emit(v, &n, 7, 0x1006, 0, tid);
		emit(v, &n, 2, 0x2000, 1, tid);
		emit(v, &n, 3, 0x100b, 1, tid);
		emit(v, &n, 4, it % 5 ? 0x1000 : 0x100d, it % 5 != 0, tid);
		if (it % 5 == 0) {
			for (i = 0; i < it % 4; i++)	/* rep steps */
				emit(v, &n, 5, 0x100d, 0, tid);
			emit(v, &n, 5, 0x100f, 0, tid);
			emit(v, &n, 6, 0x1000, 1, tid);
		}
	}
	v[n - 1].nmem = 1;	/* a shape exception (jmp rax: none) */
	v[n - 1].nload = 1;
	v[n - 1].addr[0] = 0x1234;
	v[n - 1].msize[0] = 0;
	emit(v, &n, 8, 0x1003, 0, 2);	/* new code at 0x1000 */
	emit(v, &n, 1, 0x1006, 0, 2);
	v[n - 1].flags |= PMR_DI_NEXTUNK;
	CHECK(n < sizeof(v) / sizeof(v[0]));

	w = pmr_writer_open(out, &o, &err);
	CHECK(w != NULL);
	tw = pmr_trace_writer_new(w, &err);
	for (i = 0; i < n; i++)
		CHECK_EQ(pmr_trace_write(tw, &v[i]), PMR_OK);
	CHECK_EQ(pmr_trace_writer_count(tw), n);
	CHECK_EQ(pmr_trace_writer_finish(tw, eb, sizeof(eb)), PMR_OK);
	CHECK_EQ(pmr_writer_close(w, eb, sizeof(eb)), PMR_OK);

	/* the file, then the file twice (concatenated streams) */
	snprintf(cmd, sizeof(cmd), "cat %s %s > %s", out, out, cat);
	CHECK_EQ(system(cmd), 0);
	for (pass = 0; pass < 2; pass++) {
		t = open_ok(pass ? cat : out, PMR_TF_AUTO);
		if (t == NULL)
			return;
		CHECK_EQ(pmr_trace_format(t), PMR_TF_PMR);
		for (i = 0; (r = pmr_trace_next(t, &di)) == 1; i++) {
			const struct pmr_dinsn *e = &v[i % n];
			unsigned k;
			int ok = same_dinsn(e, &di) &&
			    (e->flags & PMR_DI_TAKEN) == (di.flags & PMR_DI_TAKEN);

			for (k = 0; ok && k < e->nmem; k++)
				ok = e->msize[k] == di.msize[k];
			if (!ok && bad++ < 3)
				printf("# pass %u: instruction %u differs\n", pass,
				    i);
		}
		CHECK_EQ(r, 0);
		CHECK_EQ(i, (pass + 1) * n);
		CHECK_EQ(pmr_trace_nsinsn(t), (pass + 1) * 9);
		pmr_trace_close(t);
	}
	CHECK_EQ(bad, 0);
	unlink(out);
	unlink(cat);
}

/* The hand-written records decode with the registry's field tables. */
UNIT_TEST(pmr_records_match_registry)
{
	const char *out = tmp_path("reg.pmr");
	struct pmr_sinsn_rec sr;
	struct pmr_dinsn_rec dr;
	struct pmr_reader *rd;
	struct pmr_rec rec;
	const char *why = NULL;
	long long bytes, n;
	uint64_t ns = 0, ninsn = 0;
	int err = 0, r;

	CHECK_EQ(pmr_rtypes_trace_n, 3);
	CHECK_EQ(pmr_rtypes_trace[1].type, PMR_REC_SINSN);
	n = convert(path_of("ext", "drmemtrace.allasm_x86_64.trace.zip"), out,
	    &bytes);
	CHECK_EQ(n, 133);
	rd = pmr_reader_open(out, 0, &err);
	CHECK(rd != NULL);
	if (rd == NULL)
		return;
	while ((r = pmr_reader_next(rd, &rec)) == 1) {
		if (rec.type == PMR_REC_SINSN) {
			CHECK_EQ(pmr_fields_decode(&pmr_rtypes_trace[1], rec.p,
			    rec.len, &sr, &why), PMR_OK);
			CHECK(sr.pc >= 0x401000 && sr.pc < 0x402000);
			CHECK_EQ(sr.bytes.n, sr.len);
			CHECK_EQ(sr.msize.n % 2, 0);
			ns++;
		} else if (rec.type == PMR_REC_DINSN) {
			CHECK_EQ(pmr_fields_decode(&pmr_rtypes_trace[2], rec.p,
			    rec.len, &dr, &why), PMR_OK);
			ninsn += dr.n;
		}
	}
	CHECK_EQ(r, 0);
	CHECK_EQ(ns, 13);
	CHECK_EQ(ninsn, 133);
	pmr_reader_close(rd);
	unlink(out);
}

UNIT_TEST(pmr_bad_streams)
{
	struct pmr_wopts o = { "test_trace", 0, 0, 0 };
	const char *out = tmp_path("bad.pmr");
	unsigned char *p;
	struct pmr_writer *w;
	struct pmr_trace *t;
	struct pmr_dinsn di;
	char eb[256];
	int err = 0;

	/* a DINSN whose instruction has no SINSN */
	w = pmr_writer_open(out, &o, &err);
	CHECK(w != NULL);
	if (w == NULL)
		return;
	p = pmr_write_reserve(w, PMR_REC_DINSN, 28 + 20);
	CHECK(p != NULL);
	memset(p, 0, 48);
	pmr_put32(p, 1);
	pmr_put64(p + 12, 0x401000);
	CHECK_EQ(pmr_writer_close(w, eb, sizeof(eb)), PMR_OK);
	t = open_ok(out, PMR_TF_AUTO);
	if (t == NULL)
		return;
	CHECK_EQ(pmr_trace_next(t, &di), PMR_ECORRUPT);
	printf("# %s\n", pmr_trace_errmsg(t));
	CHECK(strstr(pmr_trace_errmsg(t), "no SINSN") != NULL);
	pmr_trace_close(t);

	/* a must-understand block flag */
	w = pmr_writer_open(out, &o, &err);
	p = pmr_write_reserve(w, PMR_REC_DINSN, 28 + 20);
	memset(p, 0, 48);
	pmr_put32(p + 4, 0x100);
	CHECK_EQ(pmr_writer_close(w, eb, sizeof(eb)), PMR_OK);
	t = open_ok(out, PMR_TF_AUTO);
	CHECK_EQ(pmr_trace_next(t, &di), PMR_EVERSION);
	CHECK(strstr(pmr_trace_errmsg(t), "unknown block flags") != NULL);
	pmr_trace_close(t);
	unlink(out);
	rmdir(tmpdir);
}

UNIT_MAIN(UNIT_ENTRY(decode_int), UNIT_ENTRY(decode_muldiv_fp),
    UNIT_ENTRY(decode_memory), UNIT_ENTRY(decode_stack),
    UNIT_ENTRY(decode_branches), UNIT_ENTRY(decode_string_simd),
    UNIT_ENTRY(decode_flags_and_bad), UNIT_ENTRY(champsim_class),
    UNIT_ENTRY(champsim_slice), UNIT_ENTRY(champsim_full),
    UNIT_ENTRY(drmem_simple_app), UNIT_ENTRY(drmem_agrees_with_champsim),
    UNIT_ENTRY(drmem_allasm), UNIT_ENTRY(bad_inputs), UNIT_ENTRY(formats),
    UNIT_ENTRY(pmr_roundtrip_ext), UNIT_ENTRY(pmr_roundtrip_synthetic),
    UNIT_ENTRY(pmr_records_match_registry), UNIT_ENTRY(pmr_bad_streams))
