#!/bin/sh
# pairs-paths.sh: path reconstruction from history bits (the ProfileMe
# paper's section 5.3; spec profileme 4.6, A11 and X6) on every bundled
# trace: pmsim samples pairs, pairs --rebuild builds the CFG of the trace
# and rebuilds the path of every retired sample by execution counts, by
# history bits and by history bits plus the pair constraint, intra- and
# interprocedurally.  Prints per trace, walk and scheme the success rate
# (one path, the true one) and writes them to $OUT/pairs-paths.tsv.
#
#   sh examples/pairs-paths.sh
#   MAX=0 S=256 sh examples/pairs-paths.sh          # whole traces
set -eu
PMSIM=${PMSIM:-pmsim}
PAIRS=${PAIRS:-pairs}
OUT=${OUT:-pairs-out}
TRACEDIR=${TRACEDIR:-$(dirname "$0")/../traces}
TRACES=${TRACES:-"gzip xz sort grep sqlite python cc1"}
S=${S:-128}
MAX=${MAX:-200000}
SEED=${SEED:-1}
mkdir -p "$OUT"
max=""
[ "$MAX" != 0 ] && max="--max=$MAX"
tsv=$OUT/pairs-paths.tsv
printf 'trace\twalk\tscheme\tscored\tsuccess\tok\twrong\tambiguous\tnone\n' >"$tsv"
for t in $TRACES; do
	tr=$TRACEDIR/$t.pmr.zst
	# shellcheck disable=SC2086
	"$PMSIM" --profileme=paired,S="$S" --seed="$SEED" --no-pg $max \
	    -o "$OUT/paths.pmr" "$tr"
	"$PAIRS" -f json -b all -m execs --rebuild="$tr" "$OUT/paths.pmr" |
	    awk -v t="$t" -F '"schemes":' 'NF > 1 {
		n = split($2, a, "},{")
		sc = $1; sub(/.*"scored":/, "", sc); sub(/,.*/, "", sc)
		for (i = 1; i <= n; i++) {
			s = a[i]; gsub(/[][{}"]/, "", s)
			m = split(s, f, ",")
			for (j = 1; j <= m; j++) { split(f[j], kv, ":"); v[kv[1]] = kv[2] }
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, v["mode"],
			    v["scheme"], sc, v["success"], v["ok"], v["wrong"],
			    v["ambiguous"], v["none"]
		}
	    }' >>"$tsv"
done
rm -f "$OUT/paths.pmr"
awk -F '\t' 'NR == 1 { printf "%-8s %-6s %-8s %7s %9s\n", $1, $2, $3, $4, $5; next }
	{ printf "%-8s %-6s %-8s %7d %8.1f%%\n", $1, $2, $3, $4, 100 * $5 }' "$tsv"
