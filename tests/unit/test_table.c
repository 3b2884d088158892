/*
 * test_table.c: unit tests of the table emitter (lib/util/table.c): one
 * line of every value type in each format, byte for byte.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stream/pmr.h"
#include "util/table.h"
#include "unit.h"

/* Prints the line of f in fmt into a string (caller frees). */
static char *
line(enum pmr_table_fmt fmt, const char *lead, int *seen,
    const struct pmr_tval *f, size_t n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	pmr_table_line(m, fmt, "row", lead, seen, f, n);
	fclose(m);
	return s;
}

UNIT_TEST(formats)
{
	const struct pmr_tval f[] = {
		PMR_TVU("n", 42, 0), PMR_TVX("pc", 0x401000),
		PMR_TVS("name", "a\"b", 0), PMR_TVP("share", 0.125, 0),
		PMR_TVD("ratio", 1.0 / 3), PMR_TVS("tag", "partial", 1),
	};
	int seen = 0;
	char *s;

	s = line(PMR_TABLE_TEXT, NULL, &seen, f, 6);
	CHECK_STR(s, "row n=42 0x401000 name=a\"b share=12.50% "
	    "ratio=0.333333 partial\n");
	free(s);
	s = line(PMR_TABLE_TEXT, "# lead", &seen, f, 1);
	CHECK_STR(s, "# lead n=42\n");
	free(s);
	CHECK_EQ(seen, 0);
	s = line(PMR_TABLE_TSV, NULL, &seen, f, 6);
	CHECK_STR(s, "#row\tn\tpc\tname\tshare\tratio\ttag\n"
	    "row\t42\t0x401000\ta\"b\t12.500000\t0.333333\tpartial\n");
	free(s);
	CHECK_EQ(seen, 1);
	s = line(PMR_TABLE_TSV, NULL, &seen, f, 1);	/* header once */
	CHECK_STR(s, "row\t42\n");
	free(s);
	s = line(PMR_TABLE_JSON, NULL, &seen, f, 6);
	CHECK_STR(s, "{\"type\":\"row\",\"n\":42,\"pc\":\"0x401000\","
	    "\"name\":\"a\\\"b\",\"share\":12.500000,\"ratio\":0.333333,"
	    "\"tag\":\"partial\"}\n");
	free(s);
	s = line(PMR_TABLE_FIELDS, NULL, &seen, f, 2);
	CHECK_STR(s, " n=42 0x401000\n");
	free(s);
}

/* A table of one kind: no kind column; NUM values in their format, NaN
 * missing. */
UNIT_TEST(no_kind)
{
	const struct pmr_tval f[] = {
		PMR_TVS("key", "0x10", 0), PMR_TVN("est", 2.5, "%.10g"),
		PMR_TVN("lo", NAN, "%.10g"),
	};
	int seen = 0;
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	pmr_table_line(m, PMR_TABLE_TSV, NULL, NULL, &seen, f, 3);
	pmr_table_line(m, PMR_TABLE_JSON, NULL, NULL, &seen, f, 3);
	pmr_table_header(m, NULL, f, 2);
	fclose(m);
	CHECK_STR(s, "#key\test\tlo\n0x10\t2.5\t-\n"
	    "{\"key\":\"0x10\",\"est\":2.5,\"lo\":null}\n#key\test\n");
	free(s);
}

/* A group is one JSON object; elsewhere its values stand flat. */
UNIT_TEST(group)
{
	const struct pmr_tval f[] = {
		PMR_TVS("key", "a", 0), PMR_TVG("execs", 2),
		PMR_TVU("k", 3, 0), PMR_TVN("est", 1.5, "%.10g"),
		PMR_TVG("aborts", 1), PMR_TVU("k", 0, 0),
	};
	int seen = 0;
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	pmr_table_line(m, PMR_TABLE_JSON, NULL, NULL, &seen, f, 6);
	pmr_table_line(m, PMR_TABLE_TSV, NULL, NULL, &seen, f, 6);
	fclose(m);
	CHECK_STR(s, "{\"key\":\"a\",\"execs\":{\"k\":3,\"est\":1.5},"
	    "\"aborts\":{\"k\":0}}\n#key\tk\test\tk\na\t3\t1.5\t0\n");
	free(s);
}

/* JSON strings: quotes and backslashes escaped, control bytes as \u00XX. */
UNIT_TEST(json_str)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	pmr_json_str(m, "a\\b\"c\n\x01");
	fclose(m);
	CHECK_STR(s, "\"a\\\\b\\\"c\\u000a\\u0001\"");
	free(s);
}

/* The grid: the first column left-aligned, the others right-aligned,
 * each as wide as its widest cell. */
UNIT_TEST(grid)
{
	struct pmr_grid g;
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	pmr_grid_init(&g, 3);
	pmr_grid_put(&g, "pc");
	pmr_grid_put(&g, "samples");
	pmr_grid_put(&g, "x");
	pmr_grid_put(&g, "0x401000");
	pmr_grid_putf(&g, "%d", 7);
	pmr_grid_putf(&g, "%.2f", 12.345);
	CHECK_EQ(pmr_grid_print(&g, m), 0);
	fclose(m);
	CHECK_STR(s, "pc        samples      x\n"
	    "0x401000        7  12.35\n");
	free(s);
	CHECK(g.cell == NULL && g.n == 0);
}

UNIT_MAIN(UNIT_ENTRY(formats), UNIT_ENTRY(json_str), UNIT_ENTRY(grid),
    UNIT_ENTRY(no_kind), UNIT_ENTRY(group))
