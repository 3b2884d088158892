#!/bin/sh
# mhash-timeseries.sh: the paper's Fig. 13: the error of every interval at
# 1M/0.1% for the best single hash (reset, retaining) and for 4 tables with
# conservative update, on a synthetic stream whose hot set changes every
# $PHASE events.  Writes mhash-timeseries.tsv (interval, E of each) and,
# with gnuplot, mhash-timeseries.png into $OUT.
#
#   sh examples/mhash-timeseries.sh
#   EVENTS=100M PHASE=20M sh examples/mhash-timeseries.sh
set -eu
MHASH=${MHASH:-mhash}
OUT=${OUT:-mhash-out}
EVENTS=${EVENTS:-8M}
PHASE=${PHASE:-3M}
S=n=$EVENTS,noise=3000000,hot=2000,share=60,phase=$PHASE
mkdir -p "$OUT"
for p in paper-bsh-1m paper-mh-1m; do
	"$MHASH" -p $p --eval -f tsv --synth="$S" |
	    awk -F '\t' '$1 == "E" { print $2 "\t" $3 }' >"$OUT/$p.e"
done
{
	printf 'interval\tbsh\tmh4\n'
	join -t "$(printf '\t')" "$OUT/paper-bsh-1m.e" "$OUT/paper-mh-1m.e"
} >"$OUT/mhash-timeseries.tsv"
rm -f "$OUT/paper-bsh-1m.e" "$OUT/paper-mh-1m.e"
column -t -s "$(printf '\t')" "$OUT/mhash-timeseries.tsv"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "in='$OUT/mhash-timeseries.tsv'; out='$OUT/mhash-timeseries.png'" \
	    "$(dirname "$0")/mhash-timeseries.gp"
	echo "plot: $OUT/mhash-timeseries.png"
fi
