/*
 * fuzz_icost.c: libFuzzer target for icost's readers (lib/icost/input.c)
 * and what they feed: any stream read as GNODE records through the
 * critical path of the eight categories in order-2 lanes (observed and
 * scheduled issue, one and three fragments' worth of options), or as COST
 * records merged and compared, then the invariants' check and the
 * breakdown's report.  Any stream must give a breakdown or a clean error
 * code with a message, never a crash, a read or write out of bounds, a
 * hang or undefined behaviour.  "make fuzz" builds it with
 * -fsanitize=fuzzer,address,undefined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "icost/input.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static FILE *devnull;

/* Reads path as icost does: GNODE records (or COST ones, merged) with
 * the options of variant v, then the check and the report. */
static void
run_graph(char *path, unsigned v)
{
	struct pmr_icost_input ip;
	struct pmr_icost_bd bd;
	struct pmr_icost_view view;
	const char *names[PMR_ICOST_MAXCAT];
	uint32_t lanes[64];
	unsigned k, nl;
	int rc;

	pmr_icost_input_init(&ip);
	for (k = 0; k < pmr_icost_nbases; k++) {
		struct pmr_icost_cat *c;

		if (pmr_icost_input_cat_add(&ip, pmr_icost_bases[k].name,
		    pmr_icost_bases[k].ideal, &c) != 0)
			abort();
		names[k] = ip.cats[k].name;
	}
	ip.go.issue_sched = v & 1;
	ip.go.warm = v & 2 ? 3 : 0;
	ip.fragments = (v & 2) != 0;
	ip.cut = v & 2 ? 50 : 0;
	nl = pmr_icost_lanes_order(ip.ncat, 2, lanes);
	if (pmr_icost_bd_init(&bd, PMR_COST_GRAPH, names, ip.ncat) != 0)
		goto out;
	rc = pmr_icost_read_graph(&ip, &path, 1, &bd, lanes, nl);
	if (rc != 0 && ip.errmsg[0] == '\0')
		abort();	/* every error says why */
	if (rc == 0) {
		rc = pmr_icost_input_check(&ip, &bd, 0);
		if (rc != 0 && ip.errmsg[0] == '\0')
			abort();
		if (rc == 0) {
			memset(&view, 0, sizeof(view));
			view.focus = v & 1 ? -1 : 0;	/* all pairs, or one's */
			view.order = 2;
			view.bar = (v & 2) != 0;
			(void)pmr_icost_report(devnull, &bd, &view);
		}
	}
	pmr_icost_bd_free(&bd);
out:
	pmr_icost_input_free(&ip);
}

/* The stream against itself in compare mode: COST records of one
 * machine, or a clean error. */
static void
run_compare(char *path)
{
	struct pmr_icost_input ip;
	struct pmr_icost_bd b[2];
	const struct pmr_icost_bd *bp[2] = { &b[0], &b[1] };
	struct pmr_icost_view view;
	char *files[2] = { path, path };
	unsigned k;

	pmr_icost_input_init(&ip);
	for (k = 0; k < 3; k++) {
		struct pmr_icost_cat *c;

		if (pmr_icost_input_cat_add(&ip, pmr_icost_bases[k].name,
		    pmr_icost_bases[k].ideal, &c) != 0)
			abort();
	}
	if (pmr_icost_read_compare(&ip, files, 2, b) != 0) {
		if (ip.errmsg[0] == '\0')
			abort();
	} else {
		memset(&view, 0, sizeof(view));
		view.focus = -1;
		view.order = 2;
		(void)pmr_icost_compare(devnull, bp, 2, &view, 5.0,
		    PMR_ICOST_RULE_PAPER);
		(void)pmr_icost_compare(devnull, bp, 2, &view, 5.0,
		    PMR_ICOST_RULE_MULTISIM);
		pmr_icost_bd_free(&b[0]);
		pmr_icost_bd_free(&b[1]);
	}
	pmr_icost_input_free(&ip);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static int fd = -1;
	char path[64];
	unsigned v;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if (fd < 0 && (fd = memfd_create("fuzz_icost", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) !=
	    (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (v = 0; v < 4; v++)
		run_graph(path, v);
	run_compare(path);
	return 0;
}
