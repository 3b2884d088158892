#!/bin/sh
# pairs-bootstrap.sh: coverage of the confidence intervals of the paired
# composite metrics (spec profileme 7.4, A15): for each of $SEEDS pmsim
# seeds, the whole-run interval of wasted, wasted_frac, useful_conc and
# local_ipc is computed by the delta method and by the Poisson bootstrap
# (pairs --ci=bootstrap, seeded alike), and checked against TRUTH.  Prints
# per metric and method the number of runs whose interval covers the
# exact value (about 95% of them for a 95% interval) and writes the
# intervals to $OUT/pairs-bootstrap.tsv.
#
#   sh examples/pairs-bootstrap.sh
#   SEEDS=100 MAX=1000000 TRACE=traces/gzip.pmr.zst sh examples/pairs-bootstrap.sh
set -eu
PMSIM=${PMSIM:-pmsim}
PAIRS=${PAIRS:-pairs}
OUT=${OUT:-pairs-out}
TRACE=${TRACE:-$(dirname "$0")/../traces/grep.pmr.zst}
SEEDS=${SEEDS:-10}
MAX=${MAX:-200000}
S=${S:-64}
BOOT=${BOOT:-200}
METRICS=wasted,wasted_frac,useful_conc,local_ipc
mkdir -p "$OUT"
tsv=$OUT/pairs-bootstrap.tsv
printf 'seed\tmethod\tmetric\test\tlo\thi\texact\tcovered\n' >"$tsv"
seed=1
while [ "$seed" -le "$SEEDS" ]; do
	"$PMSIM" --profileme=paired,S="$S",rearm=select --truth --no-pg \
	    --seed="$seed" --max="$MAX" -o "$OUT/boot.pmr" "$TRACE"
	for ci in delta bootstrap; do
		"$PAIRS" --ci="$ci" --boot="$BOOT" --seed="$seed" -t -b all \
		    -f tsv -m "$METRICS" "$OUT/boot.pmr" |
		    awk -F '\t' -v OFS='\t' -v s="$seed" -v c="$ci" '
			$1 == "all" { print s, c, $2, $4, $5, $6, $7,
			    ($5 <= $7 && $7 <= $6) ? 1 : 0 }' >>"$tsv"
	done
	seed=$((seed + 1))
done
rm -f "$OUT/boot.pmr"
awk -F '\t' 'NR > 1 { n[$3 " " $2]++; c[$3 " " $2] += $8 }
	END { for (k in n) printf "%-24s covered %d of %d\n", k, c[k], n[k] }' \
    "$tsv" | sort
