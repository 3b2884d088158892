#!/bin/sh
# pairs-convergence.sh: the convergence experiment of the ProfileMe
# paper's Figure 3 (spec profileme 5.2, X1) on every bundled trace: per
# static instruction, the estimated / actual retire count and D-cache miss
# count against the number of samples with the property, with the
# one-standard-deviation envelope 1 +- 1/sqrt(x).  Writes
# pairs-convergence.tsv (trace, metric, samples, estimate, exact, ratio),
# the accuracy summary lines of pairs -t, and, if gnuplot is installed,
# pairs-convergence.png into $OUT.
#
#   sh examples/pairs-convergence.sh                    # quick
#   MAX=0 S=1000 REARM=interrupt sh examples/pairs-convergence.sh
#
# MAX=0 simulates whole traces; REARM=interrupt is the faithful re-arming
# (one sample in flight), select the Bernoulli selection.
set -eu
PMSIM=${PMSIM:-pmsim}
PAIRS=${PAIRS:-pairs}
OUT=${OUT:-pairs-out}
TRACEDIR=${TRACEDIR:-$(dirname "$0")/../traces}
TRACES=${TRACES:-"gzip xz sort grep sqlite python cc1"}
S=${S:-100}
MAX=${MAX:-1000000}
SEED=${SEED:-1}
REARM=${REARM:-select}
mkdir -p "$OUT"
max=""
[ "$MAX" != 0 ] && max="--max=$MAX"
printf 'trace\tmetric\tsamples\testimate\texact\tratio\n' >"$OUT/pairs-convergence.tsv"
: >"$OUT/pairs-convergence.summary"
for t in $TRACES; do
	# shellcheck disable=SC2086
	"$PMSIM" --profileme=single,S="$S",rearm="$REARM" --truth --no-pg \
	    --seed="$SEED" $max -o "$OUT/$t.pmr" "$TRACEDIR/$t.pmr.zst"
	"$PAIRS" -t -q -f tsv -m retires,dcache_miss "$OUT/$t.pmr" |
	    awk -F '\t' -v t="$t" -v sum="$OUT/pairs-convergence.summary" '
		/^#truth / { print t ": " substr($0, 2) >>sum; next }
		/^#/ { next }
		$3 > 0 && $7 != "-" && $7 > 0 {
			print t "\t" $2 "\t" $3 "\t" $4 "\t" $7 "\t" $4 / $7 }' \
	    >>"$OUT/pairs-convergence.tsv"
	rm -f "$OUT/$t.pmr"
done
cat "$OUT/pairs-convergence.summary"
# the paper's reading: x = observed samples with the property, x >= 10
awk -F '\t' 'NR > 1 && $3 >= 10 { n[$2]++
		if ($6 - 1 <= 1 / sqrt($3) && 1 - $6 <= 1 / sqrt($3)) in1[$2]++ }
	END { for (m in n) printf "%s: %d pcs with >= 10 samples, %.1f%% inside 1 +- 1/sqrt(samples)\n",
		m, n[m], 100 * in1[m] / n[m] }' "$OUT/pairs-convergence.tsv"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "in='$OUT/pairs-convergence.tsv'; out='$OUT/pairs-convergence.png'; S='$S'" \
	    "$(dirname "$0")/pairs-convergence.gp"
	echo "plot: $OUT/pairs-convergence.png"
fi
