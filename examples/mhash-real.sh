#!/bin/sh
# mhash-real.sh: the headline table on a real program: pmtrace runs it
# under qemu, recording every loaded value and branch outcome, and mhash
# --trace derives the (load pc, value) and (branch pc, next pc) tuples
# straight from the trace (no pipeline simulation).  For value and edge
# profiling at 10K/1% and 1M/0.1% it prints E_net of multi-hash (4 tables,
# C1R0P1), the best single hash and the baselines at the same bytes, into
# $OUT/mhash-real.tsv.
#
#   sh examples/mhash-real.sh                      # ls -lR /usr/include/linux
#   sh examples/mhash-real.sh ls -laR /usr/include
#
# The default program is small so that "make check" stays quick: it makes
# one interval of 1M loads, whose error is the cold start (no retained
# entries yet, the paper's Fig. 13).  ls -laR /usr/include gives about 20
# such intervals: there multi-hash averages about 2% on values, the best
# single hash about 12%.
set -eu
MHASH=${MHASH:-mhash}
PMTRACE=${PMTRACE:-pmtrace}
OUT=${OUT:-mhash-out}
[ $# -gt 0 ] || set -- ls -lR /usr/include/linux
mkdir -p "$OUT"
trace=$OUT/mhash-real.pmr.zst
if ! "$PMTRACE" -q -o "$trace" -- "$@" >/dev/null 2>"$OUT/pmtrace.err"; then
	# pmtrace needs qemu-user and its TCG plugin; say why and stop.
	echo "mhash-real.sh: pmtrace could not trace '$*':" >&2
	cat "$OUT/pmtrace.err" >&2
	exit 0
fi
{
	printf 'kind\tsetting\tconfig\tbytes\tE_net\tFP\tFN\tintervals\n'
	for k in value edge; do
		for p in paper-mh-10k paper-mh-1m; do
			"$MHASH" --trace -k $k -p $p --sweep=baselines --eval \
			    --summary -f tsv "$trace" |
			    awk -F '\t' -v k=$k -v p=$p '$1 == "summary" {
				print k "\t" p "\t" $2 "\t" $3 "\t" $8 "\t" \
				    $11 "\t" $12 "\t" $14 }'
		done
	done
} >"$OUT/mhash-real.tsv"
column -t -s "$(printf '\t')" "$OUT/mhash-real.tsv"
