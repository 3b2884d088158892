#!/bin/bash
# tests/bench/shotgun.sh: speed of shotgun in fragments assembled per
# second (and graph nodes per second), best of $RUNS runs, wall clock, from
# the samples of $MAX instructions of a bundled trace on fields03 (the
# settings of examples/shotgun.mk: 4000-instruction signatures, dense
# detailed samples), and the whole pipeline pmsim --shotgun | shotgun |
# icost on that trace; gzip (every pc sampled) and cc1 (a fifth of the
# nodes with no sample of their pc: the stand-ins drawn from the class's
# samples).  Run by "make bench"; alone:
#
#   PM_TOP=$PWD bash tests/bench/shotgun.sh
#   TRACE=sqlite FRAGS=2000 PM_TOP=$PWD bash tests/bench/shotgun.sh
set -euo pipefail
TOP=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PMSIM=${PMSIM:-$TOP/cmd/pmsim}
SHOTGUN=${SHOTGUN:-$TOP/cmd/shotgun}
ICOST=${ICOST:-$TOP/cmd/icost}
MAX=${MAX:-2000000}
RUNS=${RUNS:-3}
FRAGS=${FRAGS:-1000}
TRACES=${TRACE:-gzip cc1}
SPEC=sig=2000,len=4000,det=20
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/best.bash"

for t in $TRACES; do
	TRACE=$TOP/traces/$t.pmr.zst
	"$PMSIM" -q -m fields03 --shotgun=$SPEC --max "$MAX" -o "$tmp/s.pmr" "$TRACE"
	# the warnings of every run, once each
	: > "$tmp/err"
	exec 3>&2 2>>"$tmp/err"
	build=$(best "$SHOTGUN" -n "$FRAGS" -p "$TRACE" -o /dev/null "$tmp/s.pmr")
	read1=$(best "$SHOTGUN" -n 1 -p "$TRACE" -o /dev/null "$tmp/s.pmr")
	pipe=$(best bash -o pipefail -c "'$PMSIM' -q -m fields03 --shotgun=$SPEC \
	    --max $MAX '$TRACE' | '$SHOTGUN' -n $FRAGS -p '$TRACE' | \
	    '$ICOST' -q --chain --warm 1280")
	exec 2>&3 3>&-
	sort -u "$tmp/err" >&2
	awk -v f="$FRAGS" -v b="$build" -v r="$read1" -v p="$pipe" -v m="$MAX" \
	    -v t="$(basename "$TRACE" .pmr.zst)" 'BEGIN {
		printf "shotgun: %d fragments of 4000 instructions from the samples of %d instructions (%s, fields03), best of runs:\n", f, m, t
		printf "  %.2f s in all, %.2f s of it reading the samples and the trace\n", b, r
		printf "  assembly: %.0f fragments/s, %.2f M nodes/s written\n", f / (b - r), f * 4000 / (b - r) / 1e6
		printf "  pmsim --shotgun | shotgun | icost --chain --warm 1280 (8 categories, order 2): %.2f s\n", p
	}'
done
