/*
 * unit.h: a minimal TAP-producing unit-test harness for tests/unit.
 *
 * Each test file defines test functions with UNIT_TEST(name), lists them in
 * UNIT_MAIN(...), and links libpmr.a.  Run without arguments, the binary runs
 * every test and prints TAP ("1..N", "ok K - name", "not ok K - name"
 * preceded by "# file:line: message" diagnostics) for prove; "-t name" runs
 * one test, "-l" lists the names.  Exit status is 1 if any check failed.
 */
#ifndef UNIT_H
#define UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
};

static int unit_failed;

#define UNIT_TEST(name) static void test_##name(void)

/* The next value of a splitmix64 stream at *x: the tests' random numbers,
 * reproducible from the seed they set. */
static inline uint64_t
unit_rnd(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
#define UNIT_ENTRY(name) { #name, test_##name }

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			printf("# %s:%d: check failed: %s\n", __FILE__,      \
			    __LINE__, #cond);                                \
			unit_failed = 1;                                     \
		}                                                            \
	} while (0)

#define CHECK_EQ(a, b)                                                       \
	do {                                                                 \
		long long unit_a = (long long)(a), unit_b = (long long)(b);  \
		if (unit_a != unit_b) {                                      \
			printf("# %s:%d: %s == %lld, expected %s == %lld\n", \
			    __FILE__, __LINE__, #a, unit_a, #b, unit_b);     \
			unit_failed = 1;                                     \
		}                                                            \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                   \
	do {                                                                 \
		uint64_t unit_a = (uint64_t)(a), unit_b = (uint64_t)(b);     \
		if (unit_a != unit_b) {                                      \
			printf("# %s:%d: %s == %" PRIu64 ", expected %"      \
			       PRIu64 "\n",                                  \
			    __FILE__, __LINE__, #a, unit_a, unit_b);         \
			unit_failed = 1;                                     \
		}                                                            \
	} while (0)

#define CHECK_NEAR(a, b, eps)                                                \
	do {                                                                 \
		double unit_a = (a), unit_b = (b);                           \
		if (!(unit_a - unit_b <= (eps) && unit_b - unit_a <= (eps))) { \
			printf("# %s:%d: %s == %.9g, expected %.9g +- %g\n", \
			    __FILE__, __LINE__, #a, unit_a, unit_b,          \
			    (double)(eps));                                  \
			unit_failed = 1;                                     \
		}                                                            \
	} while (0)

#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *unit_a = (a), *unit_b = (b);                     \
		if (unit_a == NULL || strcmp(unit_a, unit_b) != 0) {         \
			printf("# %s:%d: %s == \"%s\", expected \"%s\"\n",   \
			    __FILE__, __LINE__, #a,                          \
			    unit_a ? unit_a : "(null)", unit_b);             \
			unit_failed = 1;                                     \
		}                                                            \
	} while (0)

static int
unit_main(const struct unit_test *t, size_t n, int argc, char **argv)
{
	size_t i;
	int any = 0, k = 0;

	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		for (i = 0; i < n; i++)
			printf("%s\n", t[i].name);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "-t") == 0) {
		for (i = 0; i < n; i++)
			if (strcmp(t[i].name, argv[2]) == 0)
				break;
		if (i == n) {
			fprintf(stderr, "%s: no test '%s'\n", argv[0], argv[2]);
			return 2;
		}
		t += i;
		n = 1;
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [-l | -t name]\n", argv[0]);
		return 2;
	}
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		unit_failed = 0;
		fflush(stdout);
		t[i].fn();
		printf("%sok %d - %s\n", unit_failed ? "not " : "", ++k,
		    t[i].name);
		any |= unit_failed;
	}
	return any;
}

#define UNIT_MAIN(...)                                                       \
	int main(int argc, char **argv)                                      \
	{                                                                    \
		static const struct unit_test unit_tests[] = { __VA_ARGS__ }; \
		return unit_main(unit_tests,                                 \
		    sizeof(unit_tests) / sizeof(unit_tests[0]), argc, argv); \
	}

#endif /* UNIT_H */
