/*
 * test_import.c: unit tests of the perf script importer (lib/prof/import.c)
 * on the hand-written files of tests/data/perf: every field of every
 * SAMPLE of an IBS op and an SPE file, the IMAGE and META records and
 * their order, the data_src to event mapping, and the exact message (with
 * its line number) of each bad file.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof/import.h"
#include "sim/sim.h"
#include "stream/pmr.h"
#include "trace/trace.h"
#include "unit.h"

#ifndef DATA
#define DATA "tests/data/perf/"
#endif

#define NOLAT PMR_SIM_NOLAT
#define RET PMR_SIM_EV_RETIRED
#define DC PMR_SIM_EV_DCACHE_MISS
#define LLC PMR_SIM_EV_LLC_MISS
#define TLB PMR_SIM_EV_DTLB_MISS

/* One expected SAMPLE. */
struct want {
	uint8_t cls;
	uint32_t events, context;
	uint64_t pc, addr;
	uint32_t lat_ld, lat_total;
};

/* One expected IMAGE: a dso's has start, size, offset 0 and no build-id. */
struct wimg {
	const char *path;
	uint64_t start, size, offset;
	const char *bid;	/* hex, or NULL for none */
};

struct run {
	int rc;
	char err[256];
	struct pmr_prof_import_stats st;
	char out[64];
};

/* Imports DATA file into a temporary stream; r->out names it. */
static void
import(const char *file, enum pmr_prof_import_kind kind, struct run *r)
{
	struct pmr_wopts o = { "test_import", 0, 0, 0 };
	struct pmr_writer *w;
	char path[256], cerr[128];
	FILE *in;
	int e, fd;

	memset(r, 0, sizeof(*r));
	snprintf(r->out, sizeof(r->out), "/tmp/test_import.XXXXXX");
	if ((fd = mkstemp(r->out)) < 0) {
		r->rc = -100;
		return;
	}
	close(fd);
	snprintf(path, sizeof(path), DATA "%s", file);
	if ((in = fopen(path, "r")) == NULL) {
		printf("# cannot open %s\n", path);
		r->rc = -100;
		return;
	}
	if ((w = pmr_writer_open(r->out, &o, &e)) == NULL) {
		fclose(in);
		r->rc = -100;
		return;
	}
	r->rc = pmr_prof_import_perf(in, file, kind, w, &r->st, r->err,
	    sizeof(r->err));
	if (pmr_writer_close(w, cerr, sizeof(cerr)) != 0)
		printf("# close: %s\n", cerr);
	fclose(in);
}

static int
bytes_is(struct pmr_bytes b, const char *s)
{
	return b.n == strlen(s) && memcmp(b.p, s, b.n) == 0;
}

/* Reads r->out back: the METAs, then IMAGEs and SAMPLEs in order, where
 * order[] says, per record after the METAs, 'I' + image index or a sample
 * (any other value). */
static void
check(struct run *r, const char *source, const char *event,
    const struct want *wv, size_t nw, const struct wimg *img, size_t nimg,
    const char *order)
{
	struct pmr_reader *rd;
	struct pmr_rec rec;
	const char *why;
	size_t ns = 0, ni = 0, k = 0, nmeta = event != NULL ? 3 : 2;
	int e, rc;

	CHECK_EQ(r->rc, 0);
	CHECK_STR(r->err, "");
	CHECK_EQ_U64(r->st.samples, nw);
	CHECK_EQ_U64(r->st.dso, nimg);
	if ((rd = pmr_reader_open(r->out, 0, &e)) == NULL) {
		CHECK(rd != NULL);
		return;
	}
	while ((rc = pmr_reader_next(rd, &rec)) == 1) {
		if (k < nmeta) {
			struct pmr_meta m;

			CHECK_EQ(rec.type, PMR_REC_META);
			if (rec.type != PMR_REC_META ||
			    pmr_rec_decode(&rec, &m, &why) != 0) {
				k++;
				continue;
			}
			if (k == 0) {
				CHECK(bytes_is(m.key, "source"));
				CHECK(bytes_is(m.value, source));
			} else if (k == 1) {
				CHECK(bytes_is(m.key, "import-limits"));
				CHECK(m.value.n > 40);
			} else {
				CHECK(bytes_is(m.key, "perf-event"));
				CHECK(bytes_is(m.value, event));
			}
			k++;
			continue;
		}
		CHECK(order[k - nmeta] != '\0');
		if (order[k - nmeta] == 'I') {
			struct pmr_image im;

			CHECK_EQ(rec.type, PMR_REC_IMAGE);
			if (rec.type == PMR_REC_IMAGE && ni < nimg &&
			    pmr_rec_decode(&rec, &im, &why) == 0) {
				const struct wimg *x = &img[ni];
				char hex[2 * 64 + 1] = "";
				uint32_t j;

				if (!bytes_is(im.path, x->path))
					printf("# image %zu: want %s\n", ni,
					    x->path);
				CHECK(bytes_is(im.path, x->path));
				CHECK_EQ_U64(im.start, x->start);
				CHECK_EQ_U64(im.size, x->size);
				CHECK_EQ_U64(im.offset, x->offset);
				for (j = 0; j < im.build_id.n && j < 64; j++)
					snprintf(hex + 2 * j, 3, "%02x",
					    im.build_id.p[j]);
				CHECK_STR(hex, x->bid != NULL ? x->bid : "");
			}
			ni++;
		} else {
			struct pmr_sim_sample s;

			CHECK_EQ(rec.type, PMR_REC_SAMPLE);
			if (rec.type == PMR_REC_SAMPLE && ns < nw &&
			    pmr_rec_decode(&rec, &s, &why) == 0) {
				const struct want *x = &wv[ns];

				CHECK_EQ(s.sampler, PMR_SIM_SAMPLER_IBS);
				CHECK_EQ(s.cls, x->cls);
				CHECK_EQ(s.trap, 0);
				CHECK_EQ(s.hist_len, 0);
				CHECK_EQ_U64(s.events, x->events);
				CHECK_EQ_U64(s.context, x->context);
				CHECK_EQ_U64(s.seq, ns);
				CHECK_EQ_U64(s.pos, 0);
				CHECK_EQ_U64(s.pc, x->pc);
				CHECK_EQ_U64(s.addr, x->addr);
				CHECK_EQ_U64(s.history, 0);
				CHECK_EQ_U64(s.fetch_cycle, 0);
				CHECK_EQ_U64(s.lat_fm, NOLAT);
				CHECK_EQ_U64(s.lat_md, NOLAT);
				CHECK_EQ_U64(s.lat_dx, NOLAT);
				CHECK_EQ_U64(s.lat_xr, NOLAT);
				CHECK_EQ_U64(s.lat_rr, NOLAT);
				CHECK_EQ_U64(s.lat_ld, x->lat_ld);
				CHECK_EQ_U64(s.lat_total, x->lat_total);
				CHECK_EQ(s.kind, 0);
				CHECK_EQ_U64(s.cpos, ~(uint64_t)0);
			}
			ns++;
		}
		k++;
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ_U64(ns, nw);
	CHECK_EQ_U64(ni, nimg);
	CHECK_EQ_U64(k, nmeta + strlen(order));
	pmr_reader_close(rd);
	unlink(r->out);
}

UNIT_TEST(ibs_op)
{
	static const struct want wv[] = {
		{ PMR_OP_LOAD, RET, 4242, 0x55d0c0a01234, 0x7ffd5c3a1f08,
		    NOLAT, 9 },
		{ PMR_OP_LOAD, RET | DC, 4243, 0x55d0c0a01250, 0x55d0c0c04000,
		    14, 31 },
		{ PMR_OP_LOAD, RET | DC | LLC, 4243, 0x7f3a2b6a1c10,
		    0x7f3a10000040, 230, 262 },
		{ PMR_OP_LOAD, RET | DC | TLB, 4242, 0x55d0c0a01300,
		    0x7f3a12345678, 95, 140 },
		{ PMR_OP_STORE, RET | DC, 4242, 0x55d0c0a01238, 0x7ffd5c3a1f10,
		    NOLAT, 12 },
		{ PMR_OP_STORE, RET, 4242, 0xffffffff81a01234,
		    0xffff9a0001234000, NOLAT, 5 },
		{ PMR_OP_OTHER, RET, 4242, 0x55d0c0a0125c, 0, NOLAT, 7 },
		{ PMR_OP_LOAD, RET | DC, 4243, 0x55d0c0a01250, 0x55d0c0c04040,
		    40, 66 },
		{ PMR_OP_LOAD, RET | DC | LLC, 4243, 0x7f3a2b6a1c10,
		    0x7f3a20000080, 410, 450 },
		{ PMR_OP_LOAD, RET | DC, 4243, 0x7f3a2b6a1c14, 0x7f3a20000100,
		    60, 88 },
		{ PMR_OP_OTHER, RET, 4242, 0x7f3a2b600000, 0, NOLAT, 3 },
	};
	static const struct wimg img[] = { { "/usr/bin/stream", 0, 0, 0, NULL },
		{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0, 0, 0, NULL },
		{ "[kernel.kallsyms]", 0, 0, 0, NULL } };
	struct run r;

	import("ibs_op.txt", PMR_IMPORT_AUTO, &r);
	check(&r, "perf ibs_op", "ibs_op//", wv, 11, img, 3,
	    "ISSISSSISSSSSS");
	CHECK_EQ_U64(r.st.lines, 13);
	CHECK_EQ_U64(r.st.loads, 7);
	CHECK_EQ_U64(r.st.stores, 2);
	/* the same with the kind given */
	import("ibs_op.txt", PMR_IMPORT_IBS, &r);
	check(&r, "perf ibs_op", "ibs_op//", wv, 11, img, 3,
	    "ISSISSSISSSSSS");
}

UNIT_TEST(arm_spe)
{
	static const struct want wv[] = {
		{ PMR_OP_LOAD, RET, 0, 0xaaaad0a01234, 0xffffc0a01000, 9,
		    NOLAT },
		{ PMR_OP_LOAD, RET | DC, 0, 0xaaaad0a01240, 0xffffc0b02000, 21,
		    NOLAT },
		{ PMR_OP_LOAD, RET | DC, 0, 0xaaaad0a01240, 0xffffc1000000, 48,
		    NOLAT },
		{ PMR_OP_LOAD, RET | DC | LLC | TLB, 0, 0xffffa1b2c3d0,
		    0xffffc8000000, 310, NOLAT },
		{ PMR_OP_STORE, RET, 0, 0xaaaad0a01238, 0xffffc0a01008, 3,
		    NOLAT },
	};
	static const struct wimg img[] = { { "/home/u/bench", 0, 0, 0, NULL },
		{ "/usr/lib/aarch64-linux-gnu/libc.so.6", 0, 0, 0, NULL } };
	struct run r;

	import("arm_spe.txt", PMR_IMPORT_AUTO, &r);
	check(&r, "perf arm_spe", "memory", wv, 5, img, 2, "ISSSISS");
	CHECK_EQ_U64(r.st.loads, 4);
	CHECK_EQ_U64(r.st.stores, 1);
}

/* Without an event column the kind must be given. */
UNIT_TEST(noevent)
{
	static const struct want wv[] = {
		{ PMR_OP_LOAD, RET, 1, 0x401000, 0x7ffd00001000, NOLAT, 4 },
	};
	static const struct wimg img[] = { { "/bin/a", 0, 0, 0, NULL } };
	struct run r;

	import("noevent.txt", PMR_IMPORT_AUTO, &r);
	CHECK_EQ(r.rc, PMR_EFORMAT);
	CHECK_STR(r.err, "noevent.txt:1: no event column to tell IBS from "
	    "SPE: give the kind");
	unlink(r.out);
	import("noevent.txt", PMR_IMPORT_SPE, &r);
	check(&r, "perf arm_spe", NULL, wv, 1, img, 1, "IS");
}

/*
 * MMAP and MMAP2 side-band lines (mmap.txt): an IMAGE per executable
 * mapping before its first sample, with its extent and build-id; the
 * r--p and "r" (data) mappings ignored; the zero IMAGE only for a dso
 * without a mapping line; COMM, FORK and EXIT skipped.
 */
UNIT_TEST(mmap)
{
	static const struct want wv[] = {
		{ PMR_OP_LOAD, RET, 4242, 0x55d0c0a01234, 0x7ffd5c3a1f08,
		    NOLAT, 9 },
		{ PMR_OP_LOAD, RET | DC | LLC, 4243, 0x7f3a2b6a1c10,
		    0x7f3a10000040, 230, 262 },
		{ PMR_OP_LOAD, RET | DC, 4243, 0x55d0c0a01250, 0x55d0c0c04000,
		    14, 31 },
		{ PMR_OP_STORE, RET, 4242, 0xffffffff81a01234,
		    0xffff9a0001234000, NOLAT, 5 },
		{ PMR_OP_LOAD, RET, 4242, 0x55d0c0a00800, 0x7ffd5c3a1f08,
		    NOLAT, 9 },
		{ PMR_OP_STORE, RET | DC, 4242, 0x401000, 0x7ffd5c3a1f10,
		    NOLAT, 12 },
		{ PMR_OP_OTHER, RET, 4242, 0x7f0000000000, 0, NOLAT, 3 },
		{ PMR_OP_LOAD, RET, 4300, 0x5600aa001234, 0x7ffd5c3a1f08,
		    NOLAT, 9 },
	};
	static const struct wimg img[] = {
		{ "/usr/bin/stream", 0x55d0c0a01000, 0x2000, 0x1000, NULL },
		{ "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x7f3a2b600000,
		    0x188000, 0x28000,
		    "1878e6b475720c7c51969e69ab2d276fae6d1dee" },
		{ "[kernel.kallsyms]_text", 0xffffffff81000000, 0x1e00000,
		    0xffffffff81000000, NULL },
		{ "/bin/other", 0, 0, 0, NULL },
		{ "/usr/bin/stream", 0x5600aa001000, 0x2000, 0x1000, NULL },
	};
	struct run r;

	import("mmap.txt", PMR_IMPORT_AUTO, &r);
	check(&r, "perf ibs_op", "ibs_op//", wv, 8, img, 5, "ISISSISSISSIS");
	CHECK_EQ_U64(r.st.lines, 19);
	CHECK_EQ_U64(r.st.maps, 4);
	CHECK_EQ_U64(r.st.skipped, 3);
}

/* MMAP and MMAP2 lines built here: fields, forms and errors. */
UNIT_TEST(mmap_lines)
{
	static const char sample[] = "    ibs_op//:     7ffd00001000     "
	    "10229080142 |OP LOAD|LVL L1 hit|SNP N/A|TLB L1 hit|LCK N/A  "
	    "         401000 main (/bin/a)\n";
	static const struct {
		const char *side;
		int rc;
		const char *msg;
	} c[] = {
		{ "PERF_RECORD_MMAP2 1/1: [0x400000(0x2000) @ 0 <>]: r-xp "
		  "/bin/a\n", 0, "" },
		{ "1 PERF_RECORD_MMAP 1/1: [0x400000(0x2000) @ 0]: x /bin/a\n",
		  0, "" },
		{ "PERF_RECORD_MMAP2 1/1: [0x400000(0x2000) @ 0 <abc>]: r-xp "
		  "/bin/a\n", PMR_EFORMAT, "x:1: cannot parse "
		  "PERF_RECORD_MMAP2: expected a build-id of at most 20 bytes at 'abc>]: r-xp "
		  "/bin/a'" },
		{ "PERF_RECORD_MMAP 1/1: [0x400000(0x2000) @ 0]: x\n",
		  PMR_EFORMAT, "x:1: cannot parse PERF_RECORD_MMAP: expected "
		  "' ' and the path at ''" },
		{ "PERF_RECORD_MMAP 1/1: [400000(0x2000) @ 0]: x /bin/a\n",
		  PMR_EFORMAT, "x:1: cannot parse PERF_RECORD_MMAP: expected "
		  "': [' and the start at '400000(0x2000) @ 0]: x /'" },
		{ "PERF_RECORD_MMAP2 1/1: [0x400000(0x2000) @ 0 08:01 12 0]: "
		  "r-x /bin/a\n", PMR_EFORMAT, "x:1: cannot parse "
		  "PERF_RECORD_MMAP2: expected ']: ' and the protection at "
		  "'r-x /bin/a'" },
		{ "PERF_RECORD_MMAP 1/1: [0xffffffffffffff00(0x200) @ 0]: x "
		  "/bin/a\n", PMR_EFORMAT, "x:1: PERF_RECORD_MMAP: mapping "
		  "[0xffffffffffffff00, +0x200) wraps" },
		{ "PERF_RECORD_mmap 1/1\n", PMR_EFORMAT, "x:1: cannot parse "
		  "'PERF_RECORD_mmap': not a PERF_RECORD_ kind" },
	};
	struct pmr_wopts o = { "test_import", 0, 0, 0 };
	struct pmr_prof_import_stats st;
	char err[256], out[64], text[512];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pmr_writer *w;
		FILE *in;
		int e, fd, rc;

		snprintf(text, sizeof(text), "%s%s", c[i].side, sample);
		snprintf(out, sizeof(out), "/tmp/test_import.XXXXXX");
		if ((fd = mkstemp(out)) < 0)
			continue;
		close(fd);
		in = fmemopen(text, strlen(text), "r");
		w = pmr_writer_open(out, &o, &e);
		CHECK(in != NULL && w != NULL);
		if (in == NULL || w == NULL)
			continue;
		rc = pmr_prof_import_perf(in, "x", PMR_IMPORT_IBS, w, &st,
		    err, sizeof(err));
		CHECK_EQ(rc, c[i].rc);
		CHECK_STR(err, c[i].msg);
		if (rc == 0) {
			CHECK_EQ_U64(st.maps, 1);
			CHECK_EQ_U64(st.dso, 1);
		}
		pmr_writer_abort(w);
		fclose(in);
		unlink(out);
	}
}

static void
bad(const char *file, enum pmr_prof_import_kind kind, int code,
    const char *msg)
{
	struct run r;

	import(file, kind, &r);
	CHECK_EQ(r.rc, code);
	CHECK_STR(r.err, msg);
	unlink(r.out);
}

UNIT_TEST(bad_files)
{
	bad("bad_truncated.txt", PMR_IMPORT_AUTO, PMR_EFORMAT,
	    "bad_truncated.txt:2: data_src lacks perf's decoded text "
	    "'|OP ...|LVL ...'");
	bad("bad_hex.txt", PMR_IMPORT_AUTO, PMR_EFORMAT,
	    "bad_hex.txt:3: cannot parse addr '7ffd0000zz00'");
	bad("bad_missing.txt", PMR_IMPORT_IBS, PMR_EFORMAT,
	    "bad_missing.txt:2: cannot parse dso: the line does not end "
	    "with '(DSO)'");
	bad("bad_empty.txt", PMR_IMPORT_AUTO, PMR_EFORMAT,
	    "bad_empty.txt: no samples");
	bad("bad_mixed.txt", PMR_IMPORT_AUTO, PMR_EFORMAT,
	    "bad_mixed.txt:2: event 'cycles' after 'ibs_op//': one event "
	    "per input (SPE: select one with --itrace)");
	bad("bad_mmap2.txt", PMR_IMPORT_AUTO, PMR_EFORMAT,
	    "bad_mmap2.txt:3: cannot parse PERF_RECORD_MMAP2: expected "
	    "maj:min ino ino_generation at ']: r-xp /usr/bin/stream'");
	bad("bad_opmismatch.txt", PMR_IMPORT_AUTO, PMR_EFORMAT,
	    "bad_opmismatch.txt:1: data_src text '|OP STORE' does not match "
	    "the value 10229080142 (OP LOAD)");
}

/* Lines built here: truncated fields, columns that change, spacing. */
UNIT_TEST(bad_lines)
{
	static const struct {
		const char *text, *msg;
	} c[] = {
		{ "    ibs_op//:     7ffd00001000\n",
		  "x:1: cannot parse data_src ''" },
		{ "    ibs_op//:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|SNP N/A|TLB L1 hit|LCK N/A|BLK  N/A\n",
		  "x:1: cannot parse ip: no hex number after data_src" },
		{ "    ibs_op//:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|SNP N/A|TLB L1 hit|LCK N/A|BLK  N/A  0 4 401000 "
		  "main (/bin/a)\n",
		  "x:1: cannot parse weight, ins_lat and ip: not in perf's "
		  "16-column layout" },
		{ "    ibs_op//:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|SNP N/A|TLB L1 hit|LCK N/A               4 "
		  "          401000 main (/bin/a)\n"
		  "    ibs_op//:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|SNP N/A|TLB L1 hit|LCK N/A           401000 "
		  "main (/bin/a)\n",
		  "x:2: 1 number columns after data_src where the first "
		  "sample line had 2" },
		{ "    ibs_op//:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|SNP N/A|TLB L1 hit|LCK N/A           401000 "
		  " (/bin/a)\n",
		  "x:1: cannot parse sym: expected 'IP SYM (DSO)'" },
		{ "    ibs_op//:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|TLB L1 hit|LCK N/A           401000 main (/bin/a)\n",
		  "x:1: data_src text lacks '|SNP'" },
		{ "  cycles:     7ffd00001000     10229080142 |OP LOAD|LVL "
		  "L1 hit|SNP N/A|TLB L1 hit|LCK N/A           401000 "
		  "main (/bin/a)\n",
		  "x:1: event 'cycles' is neither ibs_op nor arm_spe: give the "
		  "kind" },
	};
	struct pmr_wopts o = { "test_import", 0, 0, 0 };
	char err[256], out[64];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct pmr_writer *w;
		FILE *in;
		int e, fd;

		snprintf(out, sizeof(out), "/tmp/test_import.XXXXXX");
		if ((fd = mkstemp(out)) < 0)
			continue;
		close(fd);
		in = fmemopen((void *)c[i].text, strlen(c[i].text), "r");
		w = pmr_writer_open(out, &o, &e);
		CHECK(in != NULL && w != NULL);
		if (in == NULL || w == NULL)
			continue;
		CHECK_EQ(pmr_prof_import_perf(in, "x", PMR_IMPORT_AUTO, w,
		    NULL, err, sizeof(err)), PMR_EFORMAT);
		CHECK_STR(err, c[i].msg);
		pmr_writer_abort(w);
		fclose(in);
		unlink(out);
	}
}

UNIT_TEST(events)
{
	/* op | lvl << 5 | snoop << 19 | lock << 24 | dtlb << 26 |
	 * lvl_num << 33 | remote << 37 | hops << 43 */
#define DS(op, lvl, tlb, num, rem, hops) ((uint64_t)(op) | \
	(uint64_t)(lvl) << 5 | (uint64_t)(tlb) << 26 | \
	(uint64_t)(num) << 33 | (uint64_t)(rem) << 37 | \
	(uint64_t)(hops) << 43)
	CHECK_EQ(pmr_prof_import_events(0x5080021), 0);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x0a, 0x0a, 1, 0, 0)), 0);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x12, 0x0a, 0xc, 0, 0)), DC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x22, 0x12, 2, 0, 0)), DC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x42, 0x24, 3, 0, 0)),
	    DC | TLB);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x82, 0x0a, 0xd, 0, 0)),
	    DC | LLC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x02, 0x0a, 0xb, 1, 0)),
	    DC | LLC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x02, 0x0a, 0xb, 1, 1)), DC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x02, 0x0a, 0xb, 1, 2)),
	    DC | LLC);
	/* legacy mem_lvl bits, no lvl_num */
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x0a, 0x1a, 0, 0, 0)), 0);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x2a, 0x0a, 0, 0, 0)), 0);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x22, 0x0a, 0, 0, 0)), DC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x82, 0x0a, 0, 0, 0)),
	    DC | LLC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x102, 0x0a, 0, 0, 0)),
	    DC | LLC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x402, 0x0a, 0, 0, 0)),
	    DC | LLC);
	CHECK_EQ(pmr_prof_import_events(DS(4, 0x0c, 0x0a, 0, 0, 0)), DC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x44, 0x0a, 0, 0, 0)),
	    DC | LLC);
	CHECK_EQ(pmr_prof_import_events(DS(2, 0x01, 0x05, 0, 0, 0)), TLB);
	/* not a load or store: nothing */
	CHECK_EQ(pmr_prof_import_events(DS(0x10, 0x82, 0x24, 0xd, 0, 0)), 0);
#undef DS
}

UNIT_MAIN(UNIT_ENTRY(ibs_op), UNIT_ENTRY(arm_spe), UNIT_ENTRY(noevent),
    UNIT_ENTRY(mmap), UNIT_ENTRY(mmap_lines), UNIT_ENTRY(bad_files),
    UNIT_ENTRY(bad_lines), UNIT_ENTRY(events))
