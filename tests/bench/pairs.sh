#!/bin/bash
# tests/bench/pairs.sh: speed of pairs, in SAMPLE records per second
# (single-sample metrics) and PAIR records per second (paired metrics),
# best of $RUNS runs, wall clock, reading a raw stream from a file (the
# issue's goal: >= 5 M samples/s and >= 2 M pairs/s).  The streams are
# made by pmsim with S = 2 on the bundled gzip trace, so that they hold
# about a million records; "-f pmr" output is timed as well.  Run by
# "make bench"; alone:
#
#   PM_TOP=$PWD bash tests/bench/pairs.sh
#   MAX=5000000 RUNS=5 PM_TOP=$PWD bash tests/bench/pairs.sh
set -euo pipefail
TOP=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PMSIM=${PMSIM:-$TOP/cmd/pmsim}
PAIRS=${PAIRS:-$TOP/cmd/pairs}
MAX=${MAX:-2000000}
RUNS=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rate N ARGS...: prints the best records/s of RUNS runs of pairs ARGS.
rate() {
	local n=$1 best=0 t0 t1 i
	shift
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s.%N)
		"$PAIRS" -q "$@" >/dev/null
		t1=$(date +%s.%N)
		best=$(awk -v b="$best" -v n="$n" -v a="$t0" -v z="$t1" \
		    'BEGIN { r = n / (z - a); print (r > b + 0) ? r : b }')
	done
	printf '%s\n' "$best"
}

echo "== pairs benchmarks (best of $RUNS)"
"$PMSIM" --profileme=single,S=2,rearm=select --truth --no-pg --max="$MAX" \
    -o "$tmp/single.pmr" "$TOP/traces/gzip.pmr.zst"
"$PMSIM" --profileme=paired,S=2,W=96,rearm=select --truth --no-pg \
    --max="$MAX" -o "$tmp/paired.pmr" "$TOP/traces/gzip.pmr.zst"
ns=$("$PAIRS" "$tmp/single.pmr" | sed -n 's/.* samples \([0-9]*\),.*/\1/p')
np=$("$PAIRS" "$tmp/paired.pmr" | sed -n 's/.* pairs \([0-9]*\),.*/\1/p')
for spec in "single:$ns:" "single:$ns:-t -m all" "paired:$np:" \
    "paired:$np:-t -m all" "paired:$np:-f pmr -o $tmp/m.pmr"; do
	IFS=: read -r kind n args <<<"$spec"
	# shellcheck disable=SC2086
	r=$(rate "$n" $args "$tmp/$kind.pmr")
	awk -v k="$kind" -v n="$n" -v r="$r" -v a="$args" 'BEGIN {
	    printf "%-7s %-22s %7.2f M records/s (%d records)\n", k,
		a == "" ? "(defaults)" : a, r / 1e6, n }'
done
