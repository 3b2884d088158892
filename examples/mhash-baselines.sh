#!/bin/sh
# mhash-baselines.sh: the headline question: at the same bytes, does the
# hardware design beat the software heavy-hitter algorithms?  For total
# hash counters H from 256 to 8192, runs multi-hash (4 tables, C1R0P1),
# the best single hash, and Space-Saving, Count-Min+CU with a candidate
# store and Misra-Gries given the multi-hash bytes (paper accounting), and
# writes E_net against bytes to $OUT/mhash-baselines.tsv and .png.
#
#   sh examples/mhash-baselines.sh
#   EVENTS=10M ACCOUNTING=exact sh examples/mhash-baselines.sh
set -eu
MHASH=${MHASH:-mhash}
OUT=${OUT:-mhash-out}
EVENTS=${EVENTS:-500k}
ACCOUNTING=${ACCOUNTING:-paper}
mkdir -p "$OUT"
{
	printf 'H\talgo\tconfig\tbytes\tE_net\tFP\tFN\n'
	for h in 256 512 1024 2048 4096 8192; do
		"$MHASH" -p paper-mh-10k -H $h --accounting="$ACCOUNTING" \
		    --sweep=baselines --eval --summary -f tsv \
		    --synth=n="$EVENTS",noise=1000000,hot=200,share=60 |
		    awk -F '\t' -v h=$h '$1 == "summary" {
			a = $2; sub(/-.*/, "", a)
			print h "\t" a "\t" $2 "\t" $3 "\t" $8 "\t" $11 "\t" $12 }'
	done
} >"$OUT/mhash-baselines.tsv"
column -t -s "$(printf '\t')" "$OUT/mhash-baselines.tsv"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "in='$OUT/mhash-baselines.tsv'; out='$OUT/mhash-baselines.png'" \
	    "$(dirname "$0")/mhash-baselines.gp"
	echo "plot: $OUT/mhash-baselines.png"
fi
