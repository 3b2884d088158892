/*
 * import.h: Linux perf samples of AMD IBS op and Arm SPE as SAMPLE records.
 *
 * pmr_prof_import_perf() reads the text that perf-script(1) prints for a
 * perf.data recorded with `perf record -e ibs_op//` (AMD IBS op) or
 * `perf record -e arm_spe_0//` (Arm SPE) and writes the records of
 * man/pmr.5 (IMAGE, META, SAMPLE) that pmtools' profile tools read.
 *
 * Accepted input
 *
 * The output of
 *
 *	perf script [--show-mmap-events] [-G] \
 *	    -F [pid,tid,][cpu,][time,][period,][event,]
 *	    ip,sym,[symoff,]dso,addr,data_src[,weight[,ins_lat]]
 *
 * (one line, the -F list in any order: perf prints its columns in a fixed
 * order whatever the order of -F).  For Arm SPE, add one --itrace event
 * selection, such as --itrace=M (memory operations) or --itrace=i1i (every
 * sampled operation): perf synthesizes several samples (l1d-access,
 * tlb-access, memory, ...) from one SPE record, so every sample line of the
 * input must carry the same event name.  A recording made with -g needs
 * -G (--hide-call-graph).  The columns of a sample line, as perf prints
 * them, left to right:
 *
 *	PID/TID    decimal pid and tid, together or not at all -> context
 *	[CPU]      ignored
 *	SECS.USECS:  ignored
 *	PERIOD     decimal; only with the event column, which it precedes
 *	EVENT:     event name and a colon: "ibs_op//:"; SPE's synthesized
 *	           names ("memory:", "l1d-miss:", "instructions:", ...)
 *	ADDR       hex, no 0x (perf's "%16" PRIx64) -> addr
 *	DATA_SRC   hex perf_mem_data_src value, then its decoded text, which
 *	           must be perf's "|OP ...|LVL ...|SNP ...|TLB ...|LCK ..."
 *	           form of the perf versions that decode IBS and SPE data
 *	           sources ("|BLK ..." and "|AFF ..." may follow).  The events come from the hex value, the bit
 *	           layout of the kernel's uapi perf_event.h; the text is only
 *	           skipped, after a check that its OP agrees with the value.
 *	WEIGHT     decimal, right-aligned in 16 columns -> lat_ld
 *	INS_LAT    decimal, right-aligned in 16 columns -> lat_total
 *	IP         a space and hex right-aligned in 16 columns -> pc
 *	SYM        a space and the symbol (may hold spaces), "[unknown]"
 *	(DSO)      a space and the image path in parentheses, at the end
 *
 * ADDR, DATA_SRC, IP, SYM and DSO are required.  WEIGHT, INS_LAT and IP
 * are told apart by perf's widths: the end of each column is 16 (WEIGHT to
 * INS_LAT) or 17 (to IP) characters after the end of the one before, so
 * text whose spacing was changed does not parse.  INS_LAT without WEIGHT
 * is not accepted (it would read as WEIGHT).  Every sample line of a file
 * must have the same columns.  Blank lines and lines whose first non-blank
 * character is '#' (perf script --header) are skipped; any other line
 * that does not parse is an error that names its line.
 *
 * Side-band lines (--show-mmap-events, --show-task-events and the other
 * --show-*-events) are those with a token "PERF_RECORD_KIND" (KIND of
 * A-Z, 0-9 and '_', then a blank, ':', '(' or the end) before any "|OP ".
 * Whatever precedes that token (perf's pid/tid, cpu and time columns) is
 * ignored.  MMAP and MMAP2 are read, as perf_event__fprintf_mmap() and
 * _mmap2() of tools/perf/util/event.c print them ("%#x" numbers: 0x1f,
 * or 0 for zero):
 *
 *	PERF_RECORD_MMAP PID/TID: [START(LEN) @ PGOFF]: C PATH
 *	PERF_RECORD_MMAP2 PID/TID: [START(LEN) @ PGOFF MAJ:MIN INO GEN]:
 *	    PROT PATH
 *	PERF_RECORD_MMAP2 PID/TID: [START(LEN) @ PGOFF <BUILDID>]: PROT PATH
 *
 * (each on one line, a single space between fields).
 * PID and TID are decimal (or -1, the kernel's), MAJ and MIN hex, INO
 * and GEN decimal (all checked, then ignored), BUILDID hex bytes (at most
 * PMR_IMPORT_BID_MAX; the form of a recording with --buildid-mmap), C 'x'
 * (executable) or 'r' (data), PROT four characters [r-][w-][x-][sp], and
 * PATH the rest of the line.  Only executable mappings (C 'x', PROT with
 * 'x') are kept; the others are checked and ignored.  A MMAP or MMAP2
 * line that does not parse, or a token "PERF_RECORD_" with no KIND, is an
 * error that names its line.  Every other KIND is skipped whole: COMM,
 * FORK, EXIT (--show-task-events), NAMESPACES, CGROUP, SWITCH,
 * SWITCH_CPU_WIDE, LOST, LOST_SAMPLES, KSYMBOL, BPF_EVENT, TEXT_POKE,
 * AUX, ITRACE_START, THROTTLE, UNTHROTTLE and any newer one.
 *
 * Kind: PMR_IMPORT_IBS or PMR_IMPORT_SPE say what the input is.
 * PMR_IMPORT_AUTO reads it from the event column: a name starting with
 * "ibs_op" is IBS; one starting with "arm_spe" or one of SPE's synthesized
 * names (l1d-miss, l1d-access, llc-miss, llc-access, tlb-miss, tlb-access,
 * branch, branch-miss, remote-access, memory, instructions, all) is SPE.
 * Without an event column, or with another name, AUTO is an error that asks
 * for the kind.
 *
 * Output
 *
 * Before the first SAMPLE: META source ("perf ibs_op" or "perf arm_spe"),
 * META import-limits (the limits below, in one line), and META perf-event
 * (the event name) when the event column is there.  Each distinct DSO gets
 * one IMAGE record before the first SAMPLE whose ip lies in it (a pipe
 * cannot be read twice, so the images are not all known before the first
 * sample): path = the DSO as printed; start, size and offset 0, because
 * perf script prints no mapping address: a range of size 0 claims no pc,
 * so no tool attributes a pc to an image by address.  "[unknown]" gets no
 * IMAGE.  Each sample line gives one SAMPLE:
 *
 *	sampler   PMR_SIM_SAMPLER_IBS for both (ops tagged at dispatch)
 *	cls       PMR_OP_LOAD, PMR_OP_STORE, PMR_OP_LDST (both bits) by the
 *	          data_src OP bits, else PMR_OP_OTHER
 *	events    RETIRED always (both sample retired ops), and, for loads
 *	          and stores, DCACHE_MISS, LLC_MISS and DTLB_MISS from
 *	          data_src as pmr_prof_import_events() says
 *	context   tid, else 0
 *	seq       the sample's number, from 0, in input order
 *	pc, addr  IP, ADDR
 *	lat_ld    WEIGHT if present and above 0 (perf writes 0 for "not
 *	          measured": IBS gives its load latency only on an L1 miss),
 *	          else PMR_SIM_NOLAT
 *	lat_total INS_LAT likewise (IBS: tag to retire, in cycles)
 *	other latencies PMR_SIM_NOLAT; trap, hist_len, history, pos,
 *	          fetch_cycle and kind 0; cpos all ones (no commit index)
 *
 * Limits (the import-limits META): one op per sample and no pairs;
 * tags are skid-free, but the sampling is not time-proportional, so sample
 * counts estimate op counts, not cycles; fetch position, history and the
 * pipeline-stage latencies are unknown.
 *
 * Memory does not grow with the input: one line buffer of at most
 * PMR_IMPORT_LINE_MAX bytes, a table of at most PMR_IMPORT_DSO_MAX DSO
 * names and mapped paths, and one of at most PMR_IMPORT_MAP_MAX distinct
 * executable mappings (more is an error).
 */
#ifndef PMR_PROF_IMPORT_H
#define PMR_PROF_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stream/pmr.h"

#define PMR_IMPORT_LINE_MAX 65536	/* bytes in one line, newline included */
#define PMR_IMPORT_DSO_MAX 4096		/* distinct DSOs in one input */
#define PMR_IMPORT_MAP_MAX 4096		/* distinct executable mappings */
#define PMR_IMPORT_BID_MAX 20		/* build-id bytes (perf's limit) */
#define PMR_IMPORT_BID_MAX_S "20"

struct pmr_prof_import_stats {
	uint64_t lines;		/* lines read, skipped ones included */
	uint64_t samples;	/* SAMPLE records written */
	uint64_t loads;		/* of which loads (PMR_OP_LOAD or LDST) */
	uint64_t stores;	/* of which stores (PMR_OP_STORE or LDST) */
	uint64_t dso;		/* IMAGE records written */
	uint64_t maps;		/* distinct executable mappings read */
	uint64_t skipped;	/* other PERF_RECORD_ lines skipped */
};

enum pmr_prof_import_kind { PMR_IMPORT_AUTO, PMR_IMPORT_IBS, PMR_IMPORT_SPE };

/*
 * Reads perf script text (samples and side-band lines) from in (name for
 * messages), writes IMAGE, META and SAMPLE records to w, and fills *st
 * (may be NULL).  The caller owns in and w and closes both.  Returns 0, or <0: PMR_EFORMAT with err =
 * "NAME:LINE: what" for input that does not parse (or "NAME: no samples"),
 * PMR_EIO for a read error, PMR_ENOMEM, or the writer's code with its
 * message.  err (errlen bytes) is "" on success.
 */
int pmr_prof_import_perf(FILE *in, const char *name,
    enum pmr_prof_import_kind kind, struct pmr_writer *w,
    struct pmr_prof_import_stats *st, char *err, size_t errlen)
    PMR_RESULT_USED;

/*
 * Returns the PMR_SIM_EV_* cache and TLB bits that the perf_mem_data_src
 * value ds gives (RETIRED not included), for a load or store; 0 for other
 * ops.  The level is mem_lvl_num when set (not N/A), else the nearest level
 * named in mem_lvl.  DCACHE_MISS: the data came from beyond the L1-D, or
 * an L1 miss is reported; the line fill buffer (LFB/MAB) counts as beyond,
 * since the access found its line still on the way, as pmsim counts a load
 * merged with an outstanding miss.  LLC_MISS: from RAM, PMEM, CXL, I/O or
 * uncached, from a remote node or cache (mem_remote, REM_* levels; not
 * mem_hops "remote core, same node", a sibling core's cache inside the
 * node), or a miss reported at L3 or beyond.  DTLB_MISS: the TLB field says miss (an
 * L1 TLB miss that hits the L2 TLB is not one).
 */
uint32_t pmr_prof_import_events(uint64_t ds);

#endif /* PMR_PROF_IMPORT_H */
