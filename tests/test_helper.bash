# test_helper.bash: loaded by every tests/*.bats file.
#
# Sets $TOP (the source tree), $EXT (the external traces: the copies in
# tests/data/ext-traces, or $PM_SHARED/ext-traces) and one variable per program, overridable from the
# environment as in ": ${CUT=cut}", so the suite can run against installed
# binaries: PMVIEW=/usr/local/bin/pmview bats tests/10-pmview.bats.
bats_require_minimum_version 1.5.0

TOP=${PM_TOP:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
if [ -n "${PM_SHARED:-}" ]; then
	EXT=$PM_SHARED/ext-traces
else
	EXT=$TOP/tests/data/ext-traces
fi
# Programs of a SAN=1 build live in cmd/san/.
BIN=$TOP/cmd
[ "${PM_SAN:-}" = 1 ] && BIN=$TOP/cmd/san
: "${PMVIEW:=$BIN/pmview}"
: "${PMTRACE:=$BIN/pmtrace}"
: "${PMSIM:=$BIN/pmsim}"
: "${PAIRS:=$BIN/pairs}"
: "${PMPROF:=$BIN/pmprof}"
: "${MHASH:=$BIN/mhash}"
: "${SHOTGUN:=$BIN/shotgun}"
: "${ICOST:=$BIN/icost}"
DATA=$TOP/tests/data
export TOP SHARED DATA BIN PMVIEW PMTRACE PMSIM PAIRS PMPROF MHASH SHOTGUN ICOST

# Puts the programs on PATH under their plain names (for man EXAMPLES and
# examples/*.sh, which call "pmview", not a path).
pm_path() {
	local d=$BATS_TEST_TMPDIR/bin p
	mkdir -p "$d"
	for p in pmview pmtrace pmsim pairs pmprof mhash shotgun icost; do
		[ -x "$BIN/$p" ] && ln -sf "$BIN/$p" "$d/$p"
	done
	PATH=$d:$PATH
}

# Fails the test with a message when the file $1 differs from $2.
assert_same() {
	if ! diff -u "$2" "$1"; then
		echo "output differs from $2 (make regen rewrites it)" >&2
		return 1
	fi
}

# Checks that the last "run" printed exactly one line on stderr.
assert_one_line_stderr() {
	local n
	n=$(printf '%s\n' "$stderr" | grep -c .)
	if [ "$n" != 1 ]; then
		echo "expected one line on stderr, got $n:" >&2
		printf '%s\n' "$stderr" >&2
		return 1
	fi
}

# need_plugin DIR: builds pmtrace's qemu plugin into DIR (and exports
# PMTRACE_PLUGIN) unless the build put one beside pmtrace or one is set.
need_plugin() {
	if [ ! -e "${PMTRACE%/*}/pmtrace-plugin.so" ] && [ -z "${PMTRACE_PLUGIN:-}" ]; then
		cc -O2 -std=gnu11 -fPIC -shared -DPMR_QEMU_PLUGIN -I"$TOP/lib" \
		    -o "$1/pmtrace-plugin.so" "$TOP/lib/trace/qemu_plugin.c"
		export PMTRACE_PLUGIN=$1/pmtrace-plugin.so
	fi
}
