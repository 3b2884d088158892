#!/bin/bash
# tests/bench/pmprof.sh: speed of pmprof in samples per second, best of
# $RUNS runs, wall clock: a stream of $N TIP samples (with TRUTH) of a
# bundled trace into the procedure report, the score (instruction, block
# and procedure groupings, 20 noise-floor draws per sampler), a callgrind
# export, and into a profile database (one add) and back out of it; then
# DCPI's stall analysis (calc --whatcg, and --score) of $N CYCLES samples
# of the same trace on the in-order alpha21164.  Run by "make bench";
# alone:
#
#   PM_TOP=$PWD bash tests/bench/pmprof.sh
#   TRACE=python N=2000000 PM_TOP=$PWD bash tests/bench/pmprof.sh
set -euo pipefail
TOP=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PMSIM=${PMSIM:-$TOP/cmd/pmsim}
PMPROF=${PMPROF:-$TOP/cmd/pmprof}
PMVIEW=${PMVIEW:-$TOP/cmd/pmview}
N=${N:-1000000}
RUNS=${RUNS:-3}
TRACE=$TOP/traces/${TRACE:-sqlite}.pmr.zst
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/best.bash"

# S=2 cycles: about one sample for every 2 cycles of the run
"$PMSIM" -q --sampler=tip,S=2 --truth --max $((N * 2)) -o "$tmp/s.pmr" \
    "$TRACE"
n=$("$PMVIEW" -s "$tmp/s.pmr" | awk '$1 == "type" && $2 == "SAMPLE" { print $3 }')
read0=$(best "$PMVIEW" -c "$tmp/s.pmr")
procs=$(best "$PMPROF" procs "$tmp/s.pmr")
score=$(best "$PMPROF" score "$tmp/s.pmr")
cg=$(best "$PMPROF" export -t callgrind "$tmp/s.pmr")
add=$(best bash -c "rm -f '$tmp/p.db'*; '$PMPROF' db '$tmp/p.db' add \
    --epoch A '$tmp/s.pmr'")
rows=$(sqlite3 "$tmp/p.db" "select count(*) from sample")
dbrd=$(best "$PMPROF" procs --db "$tmp/p.db")
"$PMSIM" -q -m alpha21164 --sampler=counter,event=cycles,S=2 --truth \
    --max $((N / 2)) -o "$tmp/c.pmr" "$TRACE"
nc=$("$PMVIEW" -s "$tmp/c.pmr" | awk '$1 == "type" && $2 == "SAMPLE" { print $3 }')
calc=$(best "$PMPROF" calc --whatcg "$tmp/c.pmr")
cscore=$(best "$PMPROF" calc --whatcg --score "$tmp/c.pmr")
awk -v n="$n" -v r="$read0" -v p="$procs" -v s="$score" -v c="$cg" \
    -v a="$add" -v d="$dbrd" -v rows="$rows" -v nc="$nc" -v k="$calc" \
    -v ks="$cscore" \
    -v t="$(basename "$TRACE" .pmr.zst)" 'BEGIN {
	printf "pmprof: %d TIP samples of %s (with TRUTH), best of runs:\n", n, t
	printf "  reading the stream alone (pmview -c): %.2f s\n", r
	printf "  procs: %.2f s, %.2f M samples/s\n", p, n / p / 1e6
	printf "  score: %.2f s, %.2f M samples/s\n", s, n / s / 1e6
	printf "  export -t callgrind: %.2f s, %.2f M samples/s\n", c, n / c / 1e6
	printf "  db add (one transaction, %d rows): %.2f s, %.2f M samples/s\n", rows, a, n / a / 1e6
	printf "  procs --db: %.2f s\n", d
	printf "pmprof calc: %d CYCLES samples of %s on alpha21164:\n", nc, t
	printf "  --whatcg: %.2f s, %.2f M samples/s\n", k, nc / k / 1e6
	printf "  --whatcg --score: %.2f s, %.2f M samples/s\n", ks, nc / ks / 1e6
}'
