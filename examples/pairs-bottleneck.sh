#!/bin/sh
# pairs-bottleneck.sh: the bottleneck comparison of the ProfileMe paper's
# section 6 and Figure 7 (spec profileme 4.7, X4): per instruction, the
# total in-progress latency (fetch to retire ready, from single samples
# alone) against the issue slots wasted while it is in progress (from
# pairs), on three separate loops with different useful concurrency: the
# micro traces indep (independent ALU operations), chain (one dependence
# chain) and muldiv (multiplies and divides), run for different lengths
# so that their latencies overlap.  Prints Spearman's rank correlation of
# latency and wasted slots within each loop and over all three, for the
# estimates and the exact TRUTH values, and which instruction has the
# highest latency and which wastes most.  Writes pairs-bottleneck.tsv
# and, if gnuplot is installed, pairs-bottleneck.png into $OUT.
#
#   sh examples/pairs-bottleneck.sh
#   S=20 sh examples/pairs-bottleneck.sh     # more pairs, tighter estimates
set -eu
PMSIM=${PMSIM:-pmsim}
PAIRS=${PAIRS:-pairs}
OUT=${OUT:-pairs-out}
TRACEDIR=${TRACEDIR:-$(dirname "$0")/../traces}
S=${S:-50}
SEED=${SEED:-1}
mkdir -p "$OUT"
tsv=$OUT/pairs-bottleneck.tsv
printf 'loop\tpc\tlatency\twasted\tlatency_exact\twasted_exact\n' >"$tsv"
for spec in indep:2000000 chain:300000 muldiv:30000; do
	loop=${spec%%:*}
	"$PMSIM" --profileme=paired,S="$S",W=96,rearm=select --truth --no-pg \
	    --seed="$SEED" --max="${spec#*:}" "$TRACEDIR/micro/$loop.pmr.zst" |
	    "$PAIRS" -t -q -f tsv -m inprog,wasted |
	    awk -F '\t' -v loop="$loop" '
		/^#/ { next }
		$2 == "inprog" { l[$1] = $4; le[$1] = $7; k[$1] = $3 }
		$2 == "wasted" && k[$1] >= 20 {
			print loop "\t" $1 "\t" l[$1] "\t" $4 "\t" le[$1] "\t" $7 }' \
	    >>"$tsv"
done
# Spearman's rho of columns x and y over the rows of one loop (or all).
awk -F '\t' '
function rank(v, r, n,    i, j, less, eq) {
	for (i = 1; i <= n; i++) {
		less = 0; eq = 0
		for (j = 1; j <= n; j++) {
			if (v[j] < v[i]) less++
			else if (v[j] == v[i]) eq++
		}
		r[i] = less + (eq + 1) / 2
	}
}
function rho(g, x, y,    i, n, a, b, ra, rb, sa, sb, sab, sa2, sb2, den) {
	n = 0
	for (i = 1; i <= nr; i++)
		if (g == "all" || loop[i] == g) { n++; a[n] = col[i, x]; b[n] = col[i, y] }
	if (n < 3) return "-"
	rank(a, ra, n); rank(b, rb, n)
	for (i = 1; i <= n; i++) {
		sa += ra[i]; sb += rb[i]; sab += ra[i] * rb[i]
		sa2 += ra[i] * ra[i]; sb2 += rb[i] * rb[i]
	}
	den = sqrt((sa2 - sa * sa / n) * (sb2 - sb * sb / n))
	if (den == 0) return "-"
	return sprintf("%.3f (%d pcs)", (sab - sa * sb / n) / den, n)
}
NR > 1 {
	nr++; loop[nr] = $1; pc[nr] = $2
	for (c = 3; c <= 6; c++) col[nr, c] = $c
	if (!($1 in seen)) { seen[$1] = 1; order[++ng] = $1 }
}
END {
	for (i = 1; i <= nr; i++) {
		if (col[i, 3] > col[maxl, 3] || !maxl) maxl = i
		if (col[i, 4] > col[maxw, 4] || !maxw) maxw = i
	}
	printf "%-8s %-24s %s\n", "loop", "rho(latency, wasted)", "exact"
	for (g = 1; g <= ng; g++)
		printf "%-8s %-24s %s\n", order[g], rho(order[g], 3, 4), rho(order[g], 5, 6)
	printf "%-8s %-24s %s\n", "all", rho("all", 3, 4), rho("all", 5, 6)
	printf "highest latency: %s %s (wasted %.0f); most wasted: %s %s (latency %.0f)\n",
	    loop[maxl], pc[maxl], col[maxl, 4], loop[maxw], pc[maxw], col[maxw, 3]
}' "$tsv"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "in='$tsv'; out='$OUT/pairs-bottleneck.png'" \
	    "$(dirname "$0")/pairs-bottleneck.gp"
	echo "plot: $OUT/pairs-bottleneck.png"
fi
