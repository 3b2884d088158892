#!/bin/sh
# mhash-traces.sh: the headline table on real traces: E_net of multi-hash
# (4 tables, C1R0P1), the best single hash and the software baselines at
# the same bytes, at 10K/1%, on the edge and load-address tuples that
# mhash --trace derives from the external x86-64 traces (ChampSim and
# DynamoRIO drmemtrace of the same small program; neither carries loaded
# values, so address tuples stand in for value tuples).  Writes
# mhash-traces.tsv into $OUT.
#
#   sh examples/mhash-traces.sh
#   TRACES="a.champsim.xz b.trace.zip" sh examples/mhash-traces.sh
set -eu
MHASH=${MHASH:-mhash}
OUT=${OUT:-mhash-out}
here=$(cd "$(dirname "$0")" && pwd)
ext=${SHARED:-$here/../../shared}/ext-traces
if [ -z "${TRACES:-}" ]; then
	TRACES=""
	for t in "$ext/simple_app.champsim.xz" \
	    "$ext/drmemtrace.simple_app.trace.zip"; do
		[ -r "$t" ] && TRACES="$TRACES $t"
	done
	# Without the external traces, the bundled 48-instruction head.
	[ -n "$TRACES" ] ||
	    TRACES=$here/../tests/data/trace/simple_app.head48.champsim.gz
fi
mkdir -p "$OUT"
{
	printf 'trace\tkind\tconfig\tbytes\tE_net\tFP\tFN\tintervals\n'
	for t in $TRACES; do
		for k in edge addr; do
			"$MHASH" --trace -k $k -p paper-mh-10k --sweep=baselines \
			    --eval --summary -f tsv --partial "$t" |
			    awk -F '\t' -v t="${t##*/}" -v k=$k '
				$1 == "summary" { print t "\t" k "\t" $2 "\t" \
				    $3 "\t" $8 "\t" $11 "\t" $12 "\t" $14 }'
		done
	done
} >"$OUT/mhash-traces.tsv"
column -t -s "$(printf '\t')" "$OUT/mhash-traces.tsv"
