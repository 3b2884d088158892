#!/bin/sh
# mhash-fig14.sh: the paper's Fig. 14: edge profiling, average error E_net
# against the number of hash tables (N = 1, 2, 4, 8, 16; conservative
# update, no reset, retaining; 2K counters in all) beside the best single
# hash, at 10K/1% and 1M/0.1%, on the (branch pc, target) tuples mhash
# --trace derives from each trace.  The paper: fewer distinct tuples than
# value profiling, the same conclusions, 4 tables clearly best.  Writes
# mhash-fig14.tsv (trace, setting, config, bytes, E_net, intervals) into
# $OUT.
#
#   sh examples/mhash-fig14.sh                   # the bundled traces
#   TRACES="long/gzip.pmr.zst" sh examples/mhash-fig14.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v mhash >/dev/null 2>&1 || PATH=$here/../cmd:$PATH
OUT=${OUT:-mhash-out}
TRACES=${TRACES:-$(ls "$here"/../traces/*.pmr.zst)}
mkdir -p "$OUT"
{
	printf 'trace\tsetting\tconfig\tbytes\tE_net\tintervals\n'
	for t in $TRACES; do
		for p in paper-mh-10k paper-mh-1m; do
			case $p in *10k) s=10K/1% ;; *) s=1M/0.1% ;; esac
			mhash --trace -k edge -p $p --sweep=fig12 --eval \
			    --summary -f tsv --partial "$t" |
			    awk -F '\t' -v t="${t##*/}" -v s="$s" '
				$1 == "#summary" { for (i = 2; i <= NF; i++) h[$i] = i }
				$1 == "summary" { print t "\t" s "\t" $2 "\t" \
				    $h["bytes"] "\t" $h["E_net"] "\t" \
				    $h["intervals"] }'
		done
	done
} >"$OUT/mhash-fig14.tsv"
awk -F '\t' '{ printf "%-14s %-8s %-15s %6s %9s %9s\n", $1, $2, $3, $4, $5,
    $6 }' "$OUT/mhash-fig14.tsv"
