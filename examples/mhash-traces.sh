#!/bin/sh
# mhash-traces.sh: the headline table of issue 6 on the bundled traces:
# E_net of multi-hash (4 tables, C1R0P1), the best single hash and the
# software baselines at the same bytes, at 10K/1% and 1M/0.1%, on the
# (load pc, value) and (branch pc, target) tuples that mhash --trace
# derives from each trace (no simulation).  Writes mhash-traces.tsv into
# $OUT and prints it as a table.
#
#   sh examples/mhash-traces.sh
#   TRACES="a.champsim.xz b.trace.zip" sh examples/mhash-traces.sh
#
# ChampSim and drmemtrace traces carry no loaded values: give them with
# KINDS="edge addr" (address tuples stand in for values).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v mhash >/dev/null 2>&1 || PATH=$here/../cmd:$PATH
OUT=${OUT:-mhash-out}
KINDS=${KINDS:-value edge}
TRACES=${TRACES:-$(ls "$here"/../traces/*.pmr.zst)}
mkdir -p "$OUT"
{
	printf 'trace\tkind\tsetting\tconfig\tbytes\tE_net\tFP\tFN\tintervals\n'
	for t in $TRACES; do
		for k in $KINDS; do
			for p in paper-mh-10k paper-mh-1m; do
				case $p in *10k) s=10K/1% ;; *) s=1M/0.1% ;; esac
				mhash --trace -k "$k" -p $p --sweep=baselines \
				    --eval --summary -f tsv --partial "$t" |
				    awk -F '\t' -v t="${t##*/}" -v k="$k" -v s="$s" '
					$1 == "summary" { print t "\t" k "\t" s "\t" \
					    $2 "\t" $3 "\t" $8 "\t" $11 "\t" $12 "\t" $14 }'
			done
		done
	done
} >"$OUT/mhash-traces.tsv"
awk -F '\t' '{ printf "%-14s %-5s %-8s %-14s %6s %9s %9s %9s %9s\n",
    $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$OUT/mhash-traces.tsv"
