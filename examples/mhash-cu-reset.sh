#!/bin/sh
# mhash-cu-reset.sh: the paper's Figs. 10 and 11: E_net for N = 1, 2, 4, 8
# tables with and without conservative update (C) and immediate reset (R),
# retaining on, and its Fig. 7: single hash with and without reset (R) and
# retaining (P).  Writes mhash-cu-reset.tsv and mhash-cu-reset.png to $OUT.
#
#   sh examples/mhash-cu-reset.sh
#   EVENTS=20M SETTING=1m sh examples/mhash-cu-reset.sh
set -eu
MHASH=${MHASH:-mhash}
OUT=${OUT:-mhash-out}
EVENTS=${EVENTS:-1M}
SETTING=${SETTING:-10k}
case $SETTING in
10k) P=paper-mh-10k S=n=$EVENTS,noise=1000000,hot=200,share=60 ;;
1m) P=paper-mh-1m S=n=$EVENTS,noise=3000000,hot=2000,share=60 ;;
*) echo "mhash-cu-reset.sh: SETTING is 10k or 1m" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
{
	printf 'figure\tconfig\tE_net\tNP\tNN\tFP\tFN\n'
	for f in fig7 fig10; do
		"$MHASH" -p "$P" --sweep=$f --eval --summary -f tsv \
		    --synth="$S" |
		    awk -F '\t' -v f=$f '$1 == "summary" {
			print f "\t" $2 "\t" $8 "\t" $9 "\t" $10 "\t" $11 "\t" $12 }'
	done
} >"$OUT/mhash-cu-reset.tsv"
column -t -s "$(printf '\t')" "$OUT/mhash-cu-reset.tsv"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "in='$OUT/mhash-cu-reset.tsv'; out='$OUT/mhash-cu-reset.png'" \
	    "$(dirname "$0")/mhash-cu-reset.gp"
	echo "plot: $OUT/mhash-cu-reset.png"
fi
