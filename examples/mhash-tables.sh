#!/bin/sh
# mhash-tables.sh: the paper's Fig. 12 on synthetic value-like streams:
# average error E_net against the number of hash tables (2K counters in
# total, conservative update, no reset, retaining) beside the best single
# hash, at 10K/1% and at 1M/0.1%.  Writes mhash-tables.tsv (config, E_net
# and its parts) and, if gnuplot is installed, mhash-tables.png into $OUT.
#
#   sh examples/mhash-tables.sh                 # quick (a few seconds)
#   EVENTS=20M sh examples/mhash-tables.sh      # closer to the paper
set -eu
MHASH=${MHASH:-mhash}
OUT=${OUT:-mhash-out}
EVENTS=${EVENTS:-1M}
mkdir -p "$OUT"
{
	printf 'setting\tconfig\tbytes\tE_net\tNP\tNN\tFP\tFN\n'
	"$MHASH" -p paper-mh-10k --sweep=fig12 --eval --summary -f tsv \
	    --synth=n="$EVENTS",noise=1000000,hot=200,share=60 |
	    awk -F '\t' -v s=10k '$1 == "summary" {
		print s "\t" $2 "\t" $3 "\t" $8 "\t" $9 "\t" $10 "\t" $11 "\t" $12 }'
	"$MHASH" -p paper-mh-1m --sweep=fig12 --eval --summary -f tsv \
	    --synth=n="$EVENTS",noise=3000000,hot=2000,share=60 |
	    awk -F '\t' -v s=1m '$1 == "summary" {
		print s "\t" $2 "\t" $3 "\t" $8 "\t" $9 "\t" $10 "\t" $11 "\t" $12 }'
} >"$OUT/mhash-tables.tsv"
column -t -s "$(printf '\t')" "$OUT/mhash-tables.tsv"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "in='$OUT/mhash-tables.tsv'; out='$OUT/mhash-tables.png'" \
	    "$(dirname "$0")/mhash-tables.gp"
	echo "plot: $OUT/mhash-tables.png"
fi
