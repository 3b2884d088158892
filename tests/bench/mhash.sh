#!/bin/bash
# tests/bench/mhash.sh: throughput of mhash on binary EVENT input, in
# millions of events per second (best of $RUNS runs, wall clock), for the
# paper's configurations and the baselines.  Run by "make bench"; alone:
#
#   PM_TOP=$PWD bash tests/bench/mhash.sh
#   EVENTS=50M RUNS=5 PM_TOP=$PWD bash tests/bench/mhash.sh
#
# The stream is synthetic (mhash --synth: 60% of events from 200 hot
# tuples, the rest from 100000 noise tuples), written once as a raw and a
# zstd-compressed pmr stream in a scratch directory.
set -euo pipefail
TOP=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
MHASH=${MHASH:-$TOP/cmd/mhash}
EVENTS=${EVENTS:-20M}
RUNS=${RUNS:-3}
TIMEFORMAT=%R	# bash's time: wall seconds only
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$MHASH" --synth=n="$EVENTS",noise=100000,hot=200,share=60 --dump-events \
    --no-pg -o "$tmp/ev.pmr"
zstd -q -1 "$tmp/ev.pmr" -o "$tmp/ev.pmr.zst"
n=$("$MHASH" -e --summary -f tsv "$tmp/ev.pmr" |
    awk -F '\t' '$1 == "summary" { print $4 }')

# best_rate FILE ARGS...: prints the best M events/s over $RUNS runs.
best_rate() {
	local f=$1 best=0 t r i
	shift
	for ((i = 0; i < RUNS; i++)); do
		t=$( { time "$MHASH" "$@" --summary "$f" >/dev/null; } 2>&1 )
		r=$(awk -v n="$n" -v t="$t" 'BEGIN { printf "%.1f", n / t / 1e6 }')
		best=$(awk -v a="$best" -v b="$r" 'BEGIN { print (b > a ? b : a) }')
	done
	echo "$best"
}

printf 'mhash bench: %s events, best of %s runs, M events/s\n' "$n" "$RUNS"
printf '%-34s %10s %10s\n' configuration raw zstd
while read -r name args; do
	# shellcheck disable=SC2086
	printf '%-34s %10s %10s\n' "$name" "$(best_rate "$tmp/ev.pmr" $args)" \
	    "$(best_rate "$tmp/ev.pmr.zst" $args)"
done <<'LIST'
paper-mh-10k(best,N=4,C1R0P1) -p paper-mh-10k
paper-mh-1m -p paper-mh-1m
paper-bsh-10k -p paper-bsh-10k
space-saving(7144B) -a ss
cmcu+store(7144B) -a cmcu
misra-gries(7144B) -a mg
exact -e
paper-mh-10k+eval -p paper-mh-10k --eval
LIST
