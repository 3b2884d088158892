/*
 * x86dec.c: decode x86-64 instruction bytes into a struct pmr_sinsn.
 *
 * One decoder serves pmtrace (at translation time) and the drmemtrace
 * reader (from ENCODING entries), so both sources describe an instruction
 * the same way.  Capstone in detail mode gives the operands, the register
 * access lists and the flag effects; this file folds sub-registers onto
 * their full register (eax -> rax, ymm3 -> xmm3), makes all flags one
 * register, adds the implicit stack accesses capstone does not list as
 * operands (push, pop, call, ret, leave), and picks the operation class
 * described in trace.h.  Decoding allocates nothing: capstone's
 * instruction buffer is allocated once per decoder.
 */
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

struct pmr_insn_decoder {
	csh cs;
	cs_insn *insn;
	char text[CS_MNEMONIC_SIZE + 160 + 2];
};

/* Flags bits that read (test) a flag; every other defined bit writes. */
#define EFL_TEST                                                          \
	(X86_EFLAGS_TEST_OF | X86_EFLAGS_TEST_SF | X86_EFLAGS_TEST_ZF |   \
	    X86_EFLAGS_TEST_PF | X86_EFLAGS_TEST_CF | X86_EFLAGS_TEST_NT |  \
	    X86_EFLAGS_TEST_DF | X86_EFLAGS_TEST_RF | X86_EFLAGS_TEST_IF |  \
	    X86_EFLAGS_TEST_TF | X86_EFLAGS_TEST_AF)

struct pmr_insn_decoder *
pmr_insn_decoder_open(int isa, int *err)
{
	struct pmr_insn_decoder *d;

	if (isa != PMR_ISA_X86_64) {
		*err = PMR_EINVAL;
		return NULL;
	}
	if ((d = calloc(1, sizeof(*d))) == NULL) {
		*err = PMR_ENOMEM;
		return NULL;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d);
		*err = PMR_EIO;
		return NULL;
	}
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if ((d->insn = cs_malloc(d->cs)) == NULL) {
		cs_close(&d->cs);
		free(d);
		*err = PMR_ENOMEM;
		return NULL;
	}
	return d;
}

void
pmr_insn_decoder_close(struct pmr_insn_decoder *d)
{
	if (d == NULL)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

const char *
pmr_insn_decoder_text(const struct pmr_insn_decoder *d)
{
	return d->text;
}

/* Returns the pmr number of capstone register r, or -1 to leave it out. */
static int
fold_reg(unsigned r)
{
	switch (r) {
	case X86_REG_AL: case X86_REG_AH: case X86_REG_AX: case X86_REG_EAX:
	case X86_REG_RAX:
		return PMR_X86_RAX;
	case X86_REG_CL: case X86_REG_CH: case X86_REG_CX: case X86_REG_ECX:
	case X86_REG_RCX:
		return PMR_X86_RCX;
	case X86_REG_DL: case X86_REG_DH: case X86_REG_DX: case X86_REG_EDX:
	case X86_REG_RDX:
		return PMR_X86_RDX;
	case X86_REG_BL: case X86_REG_BH: case X86_REG_BX: case X86_REG_EBX:
	case X86_REG_RBX:
		return PMR_X86_RBX;
	case X86_REG_SPL: case X86_REG_SP: case X86_REG_ESP: case X86_REG_RSP:
		return PMR_X86_RSP;
	case X86_REG_BPL: case X86_REG_BP: case X86_REG_EBP: case X86_REG_RBP:
		return PMR_X86_RBP;
	case X86_REG_SIL: case X86_REG_SI: case X86_REG_ESI: case X86_REG_RSI:
		return PMR_X86_RSI;
	case X86_REG_DIL: case X86_REG_DI: case X86_REG_EDI: case X86_REG_RDI:
		return PMR_X86_RDI;
	case X86_REG_EFLAGS:
		return PMR_X86_FLAGS;
	case X86_REG_RIP: case X86_REG_EIP: case X86_REG_IP:
	case X86_REG_RIZ: case X86_REG_EIZ: case X86_REG_INVALID:
		return -1;
	case X86_REG_FPSW:
		return PMR_X86_FPSW;
	case X86_REG_ES: return PMR_X86_ES;
	case X86_REG_CS: return PMR_X86_ES + 1;
	case X86_REG_SS: return PMR_X86_ES + 2;
	case X86_REG_DS: return PMR_X86_ES + 3;
	case X86_REG_FS: return PMR_X86_ES + 4;
	case X86_REG_GS: return PMR_X86_ES + 5;
	}
	if (r >= X86_REG_R8 && r <= X86_REG_R15)
		return PMR_X86_R8 + (int)(r - X86_REG_R8);
	if (r >= X86_REG_R8B && r <= X86_REG_R15B)
		return PMR_X86_R8 + (int)(r - X86_REG_R8B);
	if (r >= X86_REG_R8D && r <= X86_REG_R15D)
		return PMR_X86_R8 + (int)(r - X86_REG_R8D);
	if (r >= X86_REG_R8W && r <= X86_REG_R15W)
		return PMR_X86_R8 + (int)(r - X86_REG_R8W);
	if (r >= X86_REG_XMM0 && r <= X86_REG_XMM31)
		return PMR_X86_XMM0 + (int)(r - X86_REG_XMM0);
	if (r >= X86_REG_YMM0 && r <= X86_REG_YMM31)
		return PMR_X86_XMM0 + (int)(r - X86_REG_YMM0);
	if (r >= X86_REG_ZMM0 && r <= X86_REG_ZMM31)
		return PMR_X86_XMM0 + (int)(r - X86_REG_ZMM0);
	if (r >= X86_REG_K0 && r <= X86_REG_K7)
		return PMR_X86_K0 + (int)(r - X86_REG_K0);
	if (r >= X86_REG_ST0 && r <= X86_REG_ST7)
		return PMR_X86_ST0 + (int)(r - X86_REG_ST0);
	if (r >= X86_REG_MM0 && r <= X86_REG_MM7)
		return PMR_X86_ST0 + (int)(r - X86_REG_MM0);
	if (r >= X86_REG_FP0 && r <= X86_REG_FP7)
		return PMR_X86_ST0 + (int)(r - X86_REG_FP0);
	return PMR_X86_SYS;
}

static void
add_src(struct pmr_sinsn *si, int r, int addr)
{
	unsigned i;

	if (r < 0)
		return;
	for (i = 0; i < si->nsrc; i++)
		if (si->src[i] == r) {
			if (addr)
				si->src_addr |= (uint16_t)(1u << i);
			return;
		}
	if (si->nsrc == PMR_INSN_MAXSRC) {
		si->flags |= PMR_SI_REGTRUNC;
		return;
	}
	if (addr)
		si->src_addr |= (uint16_t)(1u << si->nsrc);
	si->src[si->nsrc++] = (uint16_t)r;
}

static void
add_dst(struct pmr_sinsn *si, int r)
{
	unsigned i;

	if (r < 0)
		return;
	for (i = 0; i < si->ndst; i++)
		if (si->dst[i] == r)
			return;
	if (si->ndst == PMR_INSN_MAXDST) {
		si->flags |= PMR_SI_REGTRUNC;
		return;
	}
	si->dst[si->ndst++] = (uint16_t)r;
}

/* Removes register r from the source list (zero idioms). */
static void
drop_src(struct pmr_sinsn *si, int r)
{
	unsigned i, j;
	uint16_t m = 0;

	for (i = j = 0; i < si->nsrc; i++) {
		if (si->src[i] == r)
			continue;
		if (si->src_addr & (1u << i))
			m |= (uint16_t)(1u << j);
		si->src[j++] = si->src[i];
	}
	si->nsrc = (uint8_t)j;
	si->src_addr = m;
}

/* Memory accesses are collected as loads and stores, then merged. */
struct macc {
	unsigned nl, ns;
	uint16_t lsz[PMR_INSN_MAXMEM], ssz[PMR_INSN_MAXMEM];
	int trunc;
};

static void
macc_add(struct macc *m, int store, unsigned size)
{
	if (m->nl + m->ns == PMR_INSN_MAXMEM) {
		m->trunc = 1;
		return;
	}
	if (store)
		m->ssz[m->ns++] = (uint16_t)size;
	else
		m->lsz[m->nl++] = (uint16_t)size;
}

static int
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/*
 * Returns the fp/SIMD class of mnemonic m (without a leading 'v'), or -1.
 * Integer SIMD multiplies count as multiplies; other integer SIMD and
 * moves are left to the generic rules.
 */
static int
fp_class(const char *m)
{
	static const char *const fdiv[] = { "div", "sqrt", "rcp", "rsqrt",
		"fdiv", "fidiv", "fsqrt", NULL };
	static const char *const fmul[] = { "mul", "fmul", "fimul", "fmadd",
		"fmsub", "fnmadd", "fnmsub", "fmaddsub", "fmsubadd", "pmul",
		"dpp", "pmadd", NULL };
	static const char *const fadd[] = { "add", "sub", "min", "max",
		"cmp", "comis", "ucomis", "cvt", "fadd", "fiadd", "fsub",
		"fisub", "fcom", "fucom", "ficom", "hadd", "hsub", "round",
		"ftst", NULL };
	unsigned i;
	size_t n = strlen(m);
	int scalar_or_packed;

	/* Only the ps/pd/ss/sd forms of the SSE names are fp. */
	scalar_or_packed = n > 2 && (strcmp(m + n - 2, "ps") == 0 ||
	    strcmp(m + n - 2, "pd") == 0 || strcmp(m + n - 2, "ss") == 0 ||
	    strcmp(m + n - 2, "sd") == 0);
	for (i = 0; fdiv[i] != NULL; i++)
		if (has_prefix(m, fdiv[i]) &&
		    (m[0] == 'f' || scalar_or_packed))
			return PMR_OP_FDIV;
	for (i = 0; fmul[i] != NULL; i++)
		if (has_prefix(m, fmul[i]) &&
		    (m[0] == 'f' || m[0] == 'p' || scalar_or_packed ||
		    has_prefix(m, "dpp")))
			return PMR_OP_FMUL;
	for (i = 0; fadd[i] != NULL; i++)
		if (has_prefix(m, fadd[i]) &&
		    (m[0] == 'f' || scalar_or_packed || has_prefix(m, "cvt") ||
		    has_prefix(m, "comis") || has_prefix(m, "ucomis")))
			return PMR_OP_FADD;
	return -1;
}

static int
is_other(unsigned id)
{
	switch (id) {
	case X86_INS_CPUID: case X86_INS_RDTSC: case X86_INS_RDTSCP:
	case X86_INS_XGETBV: case X86_INS_UD2: case X86_INS_HLT:
	case X86_INS_INT3: case X86_INS_LFENCE: case X86_INS_MFENCE:
	case X86_INS_SFENCE: case X86_INS_RDRAND: case X86_INS_RDSEED:
	case X86_INS_PAUSE:
		return 1;
	}
	return 0;
}

/* Returns 1 for instructions whose memory operand is read and written. */
static int
rmw_insn(unsigned id)
{
	switch (id) {
	case X86_INS_CMPXCHG: case X86_INS_CMPXCHG8B: case X86_INS_CMPXCHG16B:
	case X86_INS_XADD: case X86_INS_XCHG:
		return 1;
	}
	return 0;
}

/* Returns 1 for the x87 stores, whose operand capstone 4 marks as read. */
static int
x87_store(const char *mn)
{
	return has_prefix(mn, "fst") || has_prefix(mn, "fist") ||
	    has_prefix(mn, "fnst") || has_prefix(mn, "fbstp") ||
	    has_prefix(mn, "fnsave") || has_prefix(mn, "fisttp");
}

/*
 * Returns 1 for moves and extracts, whose first operand is written and the
 * others read (capstone 4 marks SSE stores such as movups [m], x as reads).
 */
static int
move_insn(const char *mn)
{
	if (mn[0] == 'v')
		mn++;
	return has_prefix(mn, "mov") || has_prefix(mn, "maskmov") ||
	    has_prefix(mn, "pmaskmov") || has_prefix(mn, "pextr") ||
	    has_prefix(mn, "extract") || has_prefix(mn, "cvtps2ph");
}

/* Returns 1 for the SSE movsd/cmpsd, which share names with string ops. */
static int
sse_string_alias(const cs_insn *insn)
{
	const cs_x86 *x = &insn->detail->x86;
	unsigned i;

	if (insn->id != X86_INS_MOVSD && insn->id != X86_INS_CMPSD)
		return 0;
	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG &&
		    x->operands[i].reg >= X86_REG_XMM0 &&
		    x->operands[i].reg <= X86_REG_XMM31)
			return 1;
	return 0;
}

/* Zero idioms: xor r,r and friends do not read r. */
static int
zero_idiom(const cs_insn *insn)
{
	const cs_x86 *x = &insn->detail->x86;
	unsigned a, b;

	switch (insn->id) {
	case X86_INS_XOR: case X86_INS_SUB: case X86_INS_PXOR:
	case X86_INS_XORPS: case X86_INS_XORPD: case X86_INS_PSUBB:
	case X86_INS_PSUBD: case X86_INS_PSUBQ: case X86_INS_PSUBW:
	case X86_INS_PCMPEQB: case X86_INS_PCMPEQD: case X86_INS_PCMPEQW:
		a = 0;
		b = 1;
		break;
	case X86_INS_VPXOR: case X86_INS_VXORPS: case X86_INS_VXORPD:
	case X86_INS_VPXORD: case X86_INS_VPXORQ:
		a = 1;
		b = 2;
		break;
	default:
		return -1;
	}
	if (x->op_count <= b || x->operands[a].type != X86_OP_REG ||
	    x->operands[b].type != X86_OP_REG ||
	    x->operands[a].reg != x->operands[b].reg)
		return -1;
	if (insn->id == X86_INS_PCMPEQB || insn->id == X86_INS_PCMPEQD ||
	    insn->id == X86_INS_PCMPEQW)
		return -1;	/* all-ones idiom: keep it simple, no change */
	return fold_reg(x->operands[a].reg);
}

int
pmr_insn_decode(struct pmr_insn_decoder *d, uint64_t pc,
    const unsigned char *p, size_t n, struct pmr_sinsn *si)
{
	const uint8_t *code = p;
	size_t size = n;
	uint64_t addr = pc;
	cs_insn *insn = d->insn;
	const cs_x86 *x;
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	struct macc m;
	unsigned i, id, cls;
	int r, mem_load = 0, mem_store = 0, fpu, imm_target = 0, is_branch;
	uint8_t acc;
	uint64_t target = 0;
	uint32_t keep_id = si->id;
	const char *mn;

	memset(si, 0, sizeof(*si));
	memset(&m, 0, sizeof(m));
	si->id = keep_id;
	si->isa = PMR_ISA_X86_64;
	si->pc = pc;
	if (n > 15)
		size = 15;
	if (!cs_disasm_iter(d->cs, &code, &size, &addr, insn)) {
		si->cls = PMR_OP_OTHER;
		si->flags = PMR_SI_BADDEC;
		si->len = (uint8_t)(n < PMR_INSN_MAXBYTES ? n : 0);
		if (si->len > 0)
			memcpy(si->bytes, p, si->len);
		snprintf(d->text, sizeof(d->text), "(bad)");
		return PMR_ECORRUPT;
	}
	snprintf(d->text, sizeof(d->text), "%s%s%s", insn->mnemonic,
	    insn->op_str[0] ? " " : "", insn->op_str);
	si->len = (uint8_t)insn->size;
	memcpy(si->bytes, insn->bytes, insn->size);
	x = &insn->detail->x86;
	id = insn->id;

	if (x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE)
		si->flags |= PMR_SI_REP;
	if (x->prefix[0] == X86_PREFIX_LOCK)
		si->flags |= PMR_SI_LOCK;
	if (has_prefix(insn->mnemonic, "cmov") ||
	    has_prefix(insn->mnemonic, "fcmov") ||
	    has_prefix(insn->mnemonic, "set"))
		si->flags |= PMR_SI_CMOV;

	/* Address registers first, so they lead the source list. */
	for (i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type != X86_OP_MEM)
			continue;
		add_src(si, fold_reg(op->mem.base), 1);
		add_src(si, fold_reg(op->mem.index), 1);
		if (op->mem.segment == X86_REG_FS || op->mem.segment == X86_REG_GS)
			add_src(si, fold_reg(op->mem.segment), 1);
		if (id == X86_INS_LEA || id == X86_INS_NOP)
			continue;	/* address only, no access */
		acc = op->access;
		if (rmw_insn(id))
			acc = CS_AC_READ | CS_AC_WRITE;	/* capstone 4 says read */
		else if (x87_store(insn->mnemonic) ||
		    (i == 0 && move_insn(insn->mnemonic)))
			acc = CS_AC_WRITE;		/* and here too */
		else if (i != 0 && move_insn(insn->mnemonic))
			acc = CS_AC_READ;
		else if (id == X86_INS_TEST || id == X86_INS_CMP ||
		    id == X86_INS_BT)
			acc = CS_AC_READ;	/* capstone 4: "read, write" */
		if ((acc & CS_AC_READ) || acc == 0) {
			macc_add(&m, 0, op->size);
			mem_load = 1;
		}
		if (acc & CS_AC_WRITE) {
			macc_add(&m, 1, op->size);
			mem_store = 1;
		}
	}
	if (id == X86_INS_CMPXCHG || id == X86_INS_CMPXCHG8B ||
	    id == X86_INS_CMPXCHG16B) {
		add_src(si, PMR_X86_RAX, 0);
		add_dst(si, PMR_X86_RAX);
		if (id != X86_INS_CMPXCHG) {
			add_src(si, PMR_X86_RDX, 0);
			add_dst(si, PMR_X86_RDX);
		}
	}

	/* Register access lists (explicit and implicit). */
	if (cs_regs_access(d->cs, insn, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
		for (i = 0; i < nrd; i++)
			add_src(si, fold_reg(rd[i]), 0);
		for (i = 0; i < nwr; i++)
			add_dst(si, fold_reg(wr[i]));
	}
	fpu = cs_insn_group(d->cs, insn, X86_GRP_FPU);
	/* capstone gives the SSE movsd/cmpsd the string forms' flags */
	if (!fpu && x->eflags != 0 && !sse_string_alias(insn)) {
		if (x->eflags & EFL_TEST)
			add_src(si, PMR_X86_FLAGS, 0);
		if (x->eflags & ~(uint64_t)EFL_TEST)
			add_dst(si, PMR_X86_FLAGS);
	}
	/* A conditional move may keep the old value: it reads its target. */
	if ((si->flags & PMR_SI_CMOV) && x->op_count > 0 &&
	    x->operands[0].type == X86_OP_REG &&
	    !has_prefix(insn->mnemonic, "set"))
		add_src(si, fold_reg(x->operands[0].reg), 0);
	if ((r = zero_idiom(insn)) >= 0)
		drop_src(si, r);

	/* Implicit stack accesses. */
	switch (id) {
	case X86_INS_PUSH: case X86_INS_PUSHFQ: case X86_INS_PUSHF:
	case X86_INS_CALL: case X86_INS_ENTER:
		macc_add(&m, 1, id == X86_INS_PUSHF ? 2 : 8);
		add_src(si, PMR_X86_RSP, 1);
		add_dst(si, PMR_X86_RSP);
		break;
	case X86_INS_POP: case X86_INS_POPFQ: case X86_INS_POPF:
	case X86_INS_RET: case X86_INS_LEAVE:
		macc_add(&m, 0, id == X86_INS_POPF ? 2 : 8);
		add_src(si, id == X86_INS_LEAVE ? PMR_X86_RBP : PMR_X86_RSP, 1);
		add_dst(si, PMR_X86_RSP);
		break;
	}

	si->nload = (uint8_t)m.nl;
	si->nmem = (uint8_t)(m.nl + m.ns);
	memcpy(si->msize, m.lsz, m.nl * sizeof(m.lsz[0]));
	memcpy(si->msize + m.nl, m.ssz, m.ns * sizeof(m.ssz[0]));
	if (m.trunc)
		si->flags |= PMR_SI_MEMTRUNC;

	/* Direct target. */
	if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM &&
	    cs_insn_group(d->cs, insn, X86_GRP_BRANCH_RELATIVE)) {
		imm_target = 1;
		target = (uint64_t)x->operands[0].imm;
	}

	/* Class. */
	is_branch = 1;
	mn = insn->mnemonic;
	switch (id) {
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ:
	case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
		cls = PMR_OP_RET;
		break;
	case X86_INS_CALL: case X86_INS_LCALL:
		cls = imm_target ? PMR_OP_CALL : PMR_OP_CALL_IND;
		break;
	case X86_INS_JMP: case X86_INS_LJMP:
		cls = imm_target ? PMR_OP_JMP : PMR_OP_JMP_IND;
		break;
	case X86_INS_SYSCALL: case X86_INS_SYSENTER: case X86_INS_INT:
	case X86_INS_INTO: case X86_INS_SYSRET: case X86_INS_SYSEXIT:
		cls = PMR_OP_SYSCALL;
		is_branch = 0;
		break;
	default:
		is_branch = 0;
		if (cs_insn_group(d->cs, insn, X86_GRP_JUMP) && imm_target) {
			cls = PMR_OP_BR_COND;	/* jcc, jrcxz, loop */
			is_branch = 1;
		} else if (id == X86_INS_IMUL || id == X86_INS_MUL ||
		    id == X86_INS_MULX)
			cls = PMR_OP_IMUL;
		else if (id == X86_INS_DIV || id == X86_INS_IDIV)
			cls = PMR_OP_IDIV;
		else if ((r = fp_class(mn[0] == 'v' ? mn + 1 : mn)) >= 0)
			cls = (unsigned)r;
		else if (m.nl > 0 && m.ns > 0)
			cls = PMR_OP_LDST;
		else if (m.nl > 0)
			cls = PMR_OP_LOAD;
		else if (m.ns > 0)
			cls = PMR_OP_STORE;
		else if (id == X86_INS_NOP || id == X86_INS_FNOP ||
		    id == X86_INS_ENDBR64 || id == X86_INS_ENDBR32)
			cls = PMR_OP_NOP;
		else if (is_other(id) ||
		    cs_insn_group(d->cs, insn, X86_GRP_PRIVILEGE) ||
		    cs_insn_group(d->cs, insn, X86_GRP_INT) ||
		    (fpu && !mem_load && !mem_store))
			cls = PMR_OP_OTHER;
		else
			cls = PMR_OP_INT;
	}
	si->cls = (uint8_t)cls;
	if (is_branch && imm_target)
		si->target = target;
	return si->len;
}

const char *
pmr_insn_class_name(unsigned cls)
{
	static const char *const names[PMR_OP_NCLASS] = {
		"other", "int", "imul", "idiv", "fadd", "fmul", "fdiv",
		"load", "store", "ldst", "br_cond", "jmp", "jmp_ind", "call",
		"call_ind", "ret", "syscall", "nop"
	};

	return cls < PMR_OP_NCLASS ? names[cls] : "?";
}

int
pmr_insn_class_is_branch(unsigned cls)
{
	return cls >= PMR_OP_BR_COND && cls <= PMR_OP_RET;
}

const char *
pmr_insn_reg_name(unsigned isa, unsigned reg, char *buf, size_t len)
{
	static const char *const gpr[16] = { "rax", "rcx", "rdx", "rbx",
		"rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
		"r13", "r14", "r15" };
	static const char *const seg[6] = { "es", "cs", "ss", "ds", "fs",
		"gs" };

	if (reg >= PMR_REG_FOREIGN)
		snprintf(buf, len, "x%u", reg - PMR_REG_FOREIGN);
	else if (isa != PMR_ISA_X86_64)
		snprintf(buf, len, "r%u", reg);
	else if (reg < 16)
		snprintf(buf, len, "%s", gpr[reg]);
	else if (reg == PMR_X86_RIP)
		snprintf(buf, len, "rip");
	else if (reg == PMR_X86_FLAGS)
		snprintf(buf, len, "flags");
	else if (reg >= PMR_X86_XMM0 && reg < PMR_X86_K0)
		snprintf(buf, len, "xmm%u", reg - PMR_X86_XMM0);
	else if (reg >= PMR_X86_K0 && reg < PMR_X86_ST0)
		snprintf(buf, len, "k%u", reg - PMR_X86_K0);
	else if (reg >= PMR_X86_ST0 && reg < PMR_X86_FPSW)
		snprintf(buf, len, "st%u", reg - PMR_X86_ST0);
	else if (reg == PMR_X86_FPSW)
		snprintf(buf, len, "fpsw");
	else if (reg == PMR_X86_MXCSR)
		snprintf(buf, len, "mxcsr");
	else if (reg >= PMR_X86_ES && reg < PMR_X86_SYS)
		snprintf(buf, len, "%s", seg[reg - PMR_X86_ES]);
	else
		snprintf(buf, len, "sys");
	return buf;
}
