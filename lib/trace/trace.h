/*
 * trace.h: instruction traces, whatever their source.
 *
 * Every trace source (the native pmr stream written by pmtrace, ChampSim
 * input_instr files, DynamoRIO drmemtrace offline traces) is read through
 * one interface that yields the same in-memory records: a static
 * instruction (struct pmr_sinsn: what the decoder knows about the bytes at
 * a pc) and a dynamic instruction (struct pmr_dinsn: one execution of it,
 * with its outcome and addresses).  pmsim, pmview and the converters use
 * only this interface, so they accept any source.
 *
 * The x86-64 decoder (x86dec.c, capstone) turns instruction bytes into
 * a struct pmr_sinsn; pmtrace and the drmemtrace reader share it.
 *
 * The wire records IMAGE, SINSN and DINSN are laid out in man/pmr.5
 * (INSTRUCTION TRACES); their decoded structs and field tables are in
 * records/records.h.  Inside lib/trace, trace.c picks a source and the
 * sources decode into the objects of decode.c, below both (decode.h);
 * convert.c runs whole-trace loops over this interface for pmtrace.
 */
#ifndef PMR_TRACE_H
#define PMR_TRACE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/pmr.h"

/* Instruction set of a static instruction. */
enum pmr_isa {
	PMR_ISA_NONE = 0,
	PMR_ISA_X86_64 = 1,
	PMR_ISA_AARCH64 = 2,
	PMR_ISA_RISCV64 = 3
};

/*
 * Operation class.  The class is the instruction's main operation, chosen
 * in this order: control transfers and syscalls first; then integer
 * multiply/divide and floating-point add/multiply/divide (their memory
 * operands, if any, are listed in mem[] and executed as extra loads or
 * stores); then, for any other instruction touching memory, load, store
 * or load+store (an integer op with a memory source is a "load": the
 * pipeline adds its 1-cycle ALU step); then nop, 1-cycle integer, other.
 * The numbers are part of the wire format: append only.
 */
enum pmr_opclass {
	PMR_OP_OTHER = 0,	/* anything else; ChampSim: uniform 1 cycle */
	PMR_OP_INT = 1,		/* integer ALU, moves, 1 cycle */
	PMR_OP_IMUL = 2,
	PMR_OP_IDIV = 3,
	PMR_OP_FADD = 4,	/* fp/SIMD add, sub, compare, convert, logic */
	PMR_OP_FMUL = 5,	/* fp multiply, fused multiply-add */
	PMR_OP_FDIV = 6,	/* fp divide, square root */
	PMR_OP_LOAD = 7,
	PMR_OP_STORE = 8,
	PMR_OP_LDST = 9,	/* reads and writes memory (rmw, movs) */
	PMR_OP_BR_COND = 10,	/* conditional direct branch */
	PMR_OP_JMP = 11,	/* direct unconditional jump */
	PMR_OP_JMP_IND = 12,	/* indirect jump */
	PMR_OP_CALL = 13,	/* direct call */
	PMR_OP_CALL_IND = 14,	/* indirect call */
	PMR_OP_RET = 15,
	PMR_OP_SYSCALL = 16,
	PMR_OP_NOP = 17,
	PMR_OP_NCLASS
};

/*
 * x86-64 register numbering.  Capstone's sub-registers fold onto their full
 * register (al, ax, eax -> rax; xmm3, ymm3, zmm3 -> 18 + 3; mm3 and st(3)
 * share one number).  All flags are one register.  Foreign numberings that
 * cannot be mapped (ChampSim's converter-specific numbers) are
 * PMR_REG_FOREIGN + n: distinct, so dependences stay right, but opaque.
 */
enum pmr_x86_reg {
	PMR_X86_RAX = 0, PMR_X86_RCX, PMR_X86_RDX, PMR_X86_RBX,
	PMR_X86_RSP, PMR_X86_RBP, PMR_X86_RSI, PMR_X86_RDI,
	PMR_X86_R8, PMR_X86_R9, PMR_X86_R10, PMR_X86_R11,
	PMR_X86_R12, PMR_X86_R13, PMR_X86_R14, PMR_X86_R15,
	PMR_X86_RIP = 16,
	PMR_X86_FLAGS = 17,
	PMR_X86_XMM0 = 18,	/* xmm/ymm/zmm 0-31: 18-49 */
	PMR_X86_K0 = 50,	/* k0-k7: 50-57 */
	PMR_X86_ST0 = 58,	/* st0-7 = mm0-7: 58-65 */
	PMR_X86_FPSW = 66,	/* x87 status/control word */
	PMR_X86_MXCSR = 67,
	PMR_X86_ES = 68,	/* es cs ss ds fs gs: 68-73 */
	PMR_X86_SYS = 74,	/* control, debug and other system registers */
	PMR_X86_NREG = 75
};
#define PMR_REG_FOREIGN 256u

/* Capacities of the in-memory records. */
#define PMR_INSN_MAXBYTES 16	/* x86 instructions are at most 15 bytes */
#define PMR_INSN_MAXSRC 12
#define PMR_INSN_MAXDST 8
#define PMR_INSN_MAXMEM 8	/* memory accesses of one instruction */

/* struct pmr_sinsn flags. */
#define PMR_SI_REP 0x01u	/* rep/repne prefix: one execution per step */
#define PMR_SI_LOCK 0x02u	/* lock prefix or implicitly locked (xchg) */
#define PMR_SI_REGTRUNC 0x04u	/* register lists were longer than capacity */
#define PMR_SI_BADDEC 0x08u	/* bytes did not decode; class is "other" */
#define PMR_SI_CMOV 0x10u	/* conditional move / set: reads flags */
#define PMR_SI_MEMTRUNC 0x20u	/* more accesses than PMR_INSN_MAXMEM */

/*
 * A static instruction.  Memory accesses are listed loads first, then
 * stores, each in operand order; a read-modify-write operand is one load
 * and one store at the same address, as ChampSim and drmemtrace count
 * them.  Implicit stack accesses of push, pop, call, ret and leave are
 * included.  Address registers (base, index) are also in src[], and
 * src_addr has bit i set when src[i] is used to form an address.  The
 * fields go in the order of use: what a reader and pmsim read of every
 * instruction first, through dst[], which in the table's slots (64
 * bytes aligned) is the first cache line; bytes, that few read, last.
 */
struct pmr_sinsn {
	uint32_t id;		/* index in the reader's table, from 0 */
	uint8_t isa;		/* enum pmr_isa */
	uint8_t cls;		/* enum pmr_opclass */
	uint8_t len;		/* bytes; 0 if unknown (ChampSim) */
	uint8_t flags;		/* PMR_SI_* */
	uint64_t pc;
	uint64_t target;	/* direct branch/call target, else 0 */
	uint8_t nsrc, ndst;
	uint8_t nmem, nload;	/* accesses; the first nload are loads */
	uint16_t src_addr;	/* bit i: src[i] forms an address */
	uint16_t src[PMR_INSN_MAXSRC];
	uint16_t dst[PMR_INSN_MAXDST];
	uint16_t msize[PMR_INSN_MAXMEM];	/* bytes per access, 0 unknown */
	uint8_t bytes[PMR_INSN_MAXBYTES];	/* len of them valid */
};

/* struct pmr_dinsn flags. */
#define PMR_DI_TAKEN 0x01u	/* branch taken (always set for jumps) */
#define PMR_DI_VALUE 0x02u	/* value holds the first load's value */
#define PMR_DI_NEXTUNK 0x04u	/* next_pc is a guess: the last instruction,
				 * or the last before a thread switch */
#define PMR_DI_MEMTRUNC 0x08u	/* more accesses than PMR_INSN_MAXMEM */

/*
 * A dynamic instruction.  next_pc is always filled: the fall-through pc
 * unless control went elsewhere (taken branch, signal, syscall restart).
 * The memory accesses are those that happened, loads first: usually the
 * same shape as si's, but a source may report fewer or more.
 */
struct pmr_dinsn {
	const struct pmr_sinsn *si;	/* owned by the trace, valid until
					 * pmr_trace_close() */
	uint64_t seq;		/* 0-based index in the trace */
	uint64_t pc;		/* = si->pc */
	uint64_t next_pc;
	uint8_t flags;		/* PMR_DI_* */
	uint8_t nmem, nload;
	uint8_t reserved;
	uint32_t tid;		/* thread id, 0 when the source has none
				 * (ChampSim, QEMU) */
	uint64_t value;		/* loaded value if PMR_DI_VALUE (<= 8 bytes) */
	uint64_t addr[PMR_INSN_MAXMEM];
	uint16_t msize[PMR_INSN_MAXMEM];	/* 0 if unknown */
};

/* --- the x86-64 decoder (x86dec.c) ----------------------------------- */

struct pmr_insn_decoder;

/*
 * Opens a decoder for isa (only PMR_ISA_X86_64 for now).  Returns it, or
 * NULL with *err set (PMR_EINVAL: unsupported isa, PMR_ENOMEM, PMR_EIO:
 * capstone failed).  Caller closes.
 */
struct pmr_insn_decoder *pmr_insn_decoder_open(int isa,
    int *err) PMR_RESULT_USED;
/*
 * Decodes the instruction at pc from the n bytes at p into *si (si->id is
 * left alone).  Returns its length (> 0), or PMR_ECORRUPT if the bytes are
 * not a valid instruction; *si then describes an undecodable instruction
 * of class "other" with PMR_SI_BADDEC.  Allocates nothing.
 */
int pmr_insn_decode(struct pmr_insn_decoder *d, uint64_t pc,
    const unsigned char *p, size_t n, struct pmr_sinsn *si);
/* Returns the mnemonic and operands of the last decoded instruction. */
const char *pmr_insn_decoder_text(const struct pmr_insn_decoder *d);
void pmr_insn_decoder_close(struct pmr_insn_decoder *d);

/* Returns the short name of class cls ("load", "br_cond", ...). */
const char *pmr_insn_class_name(unsigned cls);
/* Returns 1 if cls transfers control (branches, calls, returns). */
int pmr_insn_class_is_branch(unsigned cls);
/* Writes the name of register reg of isa into buf; returns buf. */
const char *pmr_insn_reg_name(unsigned isa, unsigned reg, char *buf,
    size_t len);

/* --- reading traces (trace.c) ---------------------------------------- */

enum pmr_trace_format {
	PMR_TF_AUTO = 0,	/* by magic, then by name */
	PMR_TF_PMR,		/* native stream (raw or zstd) */
	PMR_TF_CHAMPSIM,	/* input_instr, raw/xz/gzip/zstd */
	PMR_TF_DRMEM,		/* drmemtrace .zip of chunk.NNNN */
	PMR_TF_QEMU		/* the pmtrace QEMU plugin's pipe */
};

struct pmr_trace;
struct pmr_image;

/* The names pmr_trace_format_byname() knows, for messages. */
#define PMR_TRACE_FORMATS "auto, pmr, champsim, drmemtrace"

/*
 * Returns the format named name ("auto", "pmr", "champsim", "drmemtrace"),
 * or -1 if unknown.
 */
int pmr_trace_format_byname(const char *name);
/* Returns the name of format f. */
const char *pmr_trace_format_name(int f);

/*
 * Opens the trace at path ("-": stdin, pmr or ChampSim only) in format
 * fmt.  PMR_TF_AUTO picks a zip archive as drmemtrace, a pmr magic (raw or
 * inside zstd) as pmr, and a name containing ".champsim" as ChampSim.
 * Returns the trace, or NULL with *err set and, if errbuf is not NULL, a
 * message in errbuf (errlen bytes).  Caller closes.
 */
struct pmr_trace *pmr_trace_open(const char *path, int fmt, int *err,
    char *errbuf, size_t errlen) PMR_RESULT_USED;
/*
 * Reads the next dynamic instruction into *di.  di->si stays valid until
 * pmr_trace_close().  Returns 1, 0 at the end of the trace, or a negative
 * PMR_E* code with a message in pmr_trace_errmsg(); errors are sticky.
 */
int pmr_trace_next(struct pmr_trace *t, struct pmr_dinsn *di) PMR_RESULT_USED;
/*
 * Reads the events of the pmtrace QEMU plugin from the pipe fd (which the
 * caller closes after pmr_trace_close()).  Returns the trace, or NULL with
 * *err set and a message in errbuf.
 */
struct pmr_trace *pmr_trace_open_qemu(int fd, int *err, char *errbuf,
    size_t errlen) PMR_RESULT_USED;
/*
 * Returns the executable file mapping that holds pc, the first time a pc
 * inside it is asked for, so that its IMAGE record can be written before
 * the first SINSN inside it; NULL if it was returned before, or if pc is
 * in no file (or the source has no mappings: only QEMU traces have).
 * Valid until pmr_trace_close().
 */
const struct pmr_image *pmr_trace_image_of(struct pmr_trace *t, uint64_t pc);
/* Returns the message of the last error ("" if none). */
const char *pmr_trace_errmsg(const struct pmr_trace *t);
/* Returns the count of instructions read so far, for pmr_progress_start(). */
const uint64_t *pmr_trace_counter(const struct pmr_trace *t);
/*
 * Makes pmr_trace_next() call fn(ctx, rec) for each record of a native
 * trace that is neither SINSN nor DINSN (IMAGE, META, ...), in stream
 * order, before the instructions that follow it, so that a filter such as
 * pmsim can pass IMAGE records on.  Other formats have no such records.
 */
void pmr_trace_set_side(struct pmr_trace *t,
    void (*fn)(void *ctx, const struct pmr_rec *rec), void *ctx);
/*
 * Returns the format of the trace at path as pmr_trace_open(PMR_TF_AUTO)
 * would choose it, or a negative code when it is none of them.
 */
int pmr_trace_detect(const char *path);
/* Returns the format of the open trace. */
int pmr_trace_format(const struct pmr_trace *t);
/* Returns how many static instructions the trace has defined so far. */
uint32_t pmr_trace_nsinsn(const struct pmr_trace *t);
/* Returns static instruction id, or NULL if it is not defined (yet). */
const struct pmr_sinsn *pmr_trace_sinsn(const struct pmr_trace *t,
    uint32_t id);
void pmr_trace_close(struct pmr_trace *t);

/*
 * Returns the class ChampSim derives from the registers of a 64-byte
 * input_instr record (its register convention: 6 stack pointer, 25 flags,
 * 26 instruction pointer), and sets *taken to the outcome ChampSim uses.
 * Non-branches are load, store, ldst or other.
 */
int pmr_champsim_class(const unsigned char rec[64], int *taken);

/*
 * Opens a trace of any format as a reader of native records (IMAGE,
 * SINSN, DINSN): a pmr stream is read directly, other formats are
 * converted on the fly by a thread (stream.c).  flags are the
 * reader's.  Returns the reader or NULL with *err and errbuf set; read
 * errors of the conversion are the reader's errors.  Caller closes with
 * pmr_reader_close().
 */
struct pmr_reader *pmr_trace_reader_open(const char *path, int fmt,
    unsigned flags, int *err, char *errbuf, size_t errlen) PMR_RESULT_USED;

/* --- the native trace records (pmr.c, man/pmr.5) --------------------- */

/*
 * The records IMAGE, SINSN and DINSN, their decoded structs (struct
 * pmr_image, pmr_sinsn_rec, pmr_dinsn_rec) and the DINSN block flags
 * PMR_DB_* are in records/records.h.
 */

struct pmr_trace_writer;

/*
 * Starts writing instruction trace records into w (which the caller keeps
 * owning and closes after pmr_trace_writer_finish()).  Returns the trace
 * writer, or NULL with *err set.
 */
struct pmr_trace_writer *pmr_trace_writer_new(struct pmr_writer *w,
    int *err) PMR_RESULT_USED;
/*
 * Appends one dynamic instruction.  Its static instruction is written as a
 * SINSN first when the stream does not hold it yet (or it changed).
 * Instructions are buffered into DINSN blocks.  Returns PMR_OK or a
 * negative code with a message in pmr_trace_writer_errmsg().
 */
int pmr_trace_write(struct pmr_trace_writer *tw,
    const struct pmr_dinsn *di) PMR_RESULT_USED;
/* Writes an IMAGE record now.  Returns PMR_OK or a negative code. */
int pmr_trace_write_image(struct pmr_trace_writer *tw,
    const struct pmr_image *im) PMR_RESULT_USED;
/* Returns the number of instructions written so far. */
uint64_t pmr_trace_writer_count(const struct pmr_trace_writer *tw);
const char *pmr_trace_writer_errmsg(const struct pmr_trace_writer *tw);
/*
 * Flushes the pending block and frees tw (always).  Returns PMR_OK or a
 * negative code; the message then goes to errbuf if it is not NULL.
 */
int pmr_trace_writer_finish(struct pmr_trace_writer *tw, char *errbuf,
    size_t errlen) PMR_RESULT_USED;

/* --- ChampSim traces out (export.c) ---------------------------------- */

/* Compression of a ChampSim output. */
enum pmr_champsim_comp {
	PMR_CS_RAW = 0,
	PMR_CS_XZ,
	PMR_CS_GZIP,
	PMR_CS_ZSTD
};

/* What the ChampSim records could not hold, counted by the encoder. */
struct pmr_champsim_counts {
	uint64_t n;		/* records written */
	uint64_t memlost;	/* records that lost memory accesses */
	uint64_t loads;		/* loads beyond the 4 a record holds */
	uint64_t stores;	/* stores beyond its 2 */
	uint64_t zero;		/* accesses at address 0 (ChampSim's "none") */
	uint64_t reglost;	/* records that lost registers */
};

/*
 * Encodes di as one 64-byte ChampSim input_instr record into rec, with
 * ChampSim's register convention (6 stack pointer, 25 flags, 26
 * instruction pointer; see export.c and pmtrace(1)), and adds
 * what did not fit to *cnt.  Returns PMR_OK.
 */
int pmr_champsim_encode(const struct pmr_dinsn *di, unsigned char rec[64],
    struct pmr_champsim_counts *cnt);
/* Returns the compression that path's suffix asks for (.xz .gz .zst). */
int pmr_champsim_comp_byname(const char *path);

struct pmr_champsim_writer;

/*
 * Opens a ChampSim trace for writing to path (NULL or "-": stdout),
 * compressed with comp (enum pmr_champsim_comp) at level (0: the
 * compressor's default), under a temporary name until
 * pmr_champsim_writer_close().  Returns the writer, or NULL with *err set
 * and a message in errbuf.
 */
struct pmr_champsim_writer *pmr_champsim_writer_open(const char *path,
    int comp, int level, int *err, char *errbuf,
    size_t errlen) PMR_RESULT_USED;
/*
 * Appends one dynamic instruction.  Returns PMR_OK or a negative code
 * with a message in pmr_champsim_writer_errmsg(); errors are sticky.
 */
int pmr_champsim_write(struct pmr_champsim_writer *w,
    const struct pmr_dinsn *di) PMR_RESULT_USED;
/* Returns the counts so far. */
const struct pmr_champsim_counts *pmr_champsim_writer_counts(
    const struct pmr_champsim_writer *w);
/* Returns the bytes written so far (compressed). */
uint64_t pmr_champsim_writer_bytes(const struct pmr_champsim_writer *w);
const char *pmr_champsim_writer_errmsg(const struct pmr_champsim_writer *w);
/*
 * Ends the stream, and renames the file into place.  Frees w (always).
 * Returns PMR_OK, or a negative code with the message in errbuf (if not
 * NULL); the file is then removed.
 */
int pmr_champsim_writer_close(struct pmr_champsim_writer *w, char *errbuf,
    size_t errlen) PMR_RESULT_USED;
/* Discards the output (removes the temporary file) and frees w. */
void pmr_champsim_writer_abort(struct pmr_champsim_writer *w);

/* --- the program to trace (program.c) -------------------------------- */

/*
 * Returns prog as a path that qemu-x86_64 can run: prog itself if it has
 * a '/', else the first match in PATH as execvp(3) finds it, written into
 * buf (len bytes).  Returns NULL with *why set to an errno value (ENOENT,
 * EACCES, ENOEXEC for a file that is not an x86-64 ELF executable, ...)
 * when prog cannot be run.
 */
const char *pmr_trace_find_program(const char *prog, char *buf, size_t len,
    int *why);

/* --- loops over a whole trace (convert.c) ----------------------------- */

/* What pmr_trace_copy() and pmr_trace_export() return. */
#define PMR_COPY_OK 0
#define PMR_COPY_EREAD 1	/* reading failed: pmr_trace_errmsg(t) says */
#define PMR_COPY_EWRITE 2	/* writing failed: the writer's errmsg says */

/* pmr_trace_copy() flags. */
#define PMR_COPY_IMAGES 0x1u	/* the IMAGE records of pmr_trace_image_of() */

/*
 * Copies the instructions of t into tw, leaving out the first skip and
 * stopping after max (UINT64_MAX: all), at the end of t, or as soon as
 * *stop is set (stop may be NULL; a signal handler may set it).  With
 * PMR_COPY_IMAGES, writes the IMAGE record of each executable mapping
 * before the first instruction inside it.  Returns PMR_COPY_OK,
 * PMR_COPY_EREAD or PMR_COPY_EWRITE (pmr_trace_writer_errmsg(tw)).
 */
int pmr_trace_copy(struct pmr_trace *t, struct pmr_trace_writer *tw,
    uint64_t skip, uint64_t max, unsigned flags,
    const volatile sig_atomic_t *stop);
/*
 * Writes the instructions of t to the ChampSim writer w, leaving out the
 * first skip and stopping after max.  Returns as pmr_trace_copy()
 * (pmr_champsim_writer_errmsg(w) for PMR_COPY_EWRITE).
 */
int pmr_trace_export(struct pmr_trace *t, struct pmr_champsim_writer *w,
    uint64_t skip, uint64_t max);

/* The instructions of a trace by class (pmtrace stats). */
struct pmr_trace_counts {
	uint64_t n;			/* instructions */
	uint64_t cls[PMR_OP_NCLASS];	/* by class */
	uint64_t taken[PMR_OP_NCLASS];	/* of those, taken */
	uint64_t loads, stores;		/* memory accesses */
	uint64_t values;		/* instructions with a loaded value */
};

/*
 * Reads t to its end and counts its instructions into *c.  Returns PMR_OK
 * or a negative code with a message in pmr_trace_errmsg(t).
 */
int pmr_trace_count(struct pmr_trace *t, struct pmr_trace_counts *c);
/* Prints c on f as "key<TAB>value" lines, naming the trace name. */
void pmr_trace_counts_print(FILE *f, const char *name,
    const struct pmr_trace *t, const struct pmr_trace_counts *c);
/*
 * Prints a '#' line of column names, then the first head (0: all)
 * instructions of t on f, one a line.  Returns PMR_OK or a negative code
 * with a message in pmr_trace_errmsg(t).
 */
int pmr_trace_dump(struct pmr_trace *t, FILE *f, uint64_t head);

#endif /* PMR_TRACE_H */
