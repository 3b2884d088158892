#!/bin/bash
# coverage.sh: how often the per-pc confidence intervals of pairs hold the
# exact value of pmsim's TRUTH, per metric, and on which side they miss.
#
#   tests/coverage.sh [-a] [-c all|each] [-k min] [-M metrics] [-m max]
#       [-p 'pairs options'] [-r rearm] [-S S] [-s 'seeds']
#       [-x 'pmsim options'] trace ...
#
# For every trace and seed, runs
#   pmsim -m alpha21264 --profileme=paired,S=S,rearm=R --truth --max=MAX
#       --seed=SEED trace | pairs -q -t -f tsv -m METRICS OPTIONS
# and scores each row of each metric that has an exact value: a count
# (execs, retires, event counts, useful) when its expected number of
# samples, exact / scale, is at least min [10], any other metric when it
# has at least min samples (the k column).  Prints one line per trace and
# metric, and per metric over all traces (trace "all"):
#   trace metric rows covered% below above zero na
# covered: the share of the rows with an interval that hold the exact
# value; below: exact below the interval (the estimate too high, or the
# interval too narrow on that side); above: exact above it; zero:
# intervals of width 0; na: rows printed without an interval, which
# pairs(1) explains (they count in neither covered nor missed).
# -a also prints the rows scored as missed, to stderr.
#
# -c checks the coverage of every metric pooled over the traces (all), or
# also of every trace (each), and exits 1 if one fails: with n rows that
# have an interval, it must be at least 93%, or, when n is too small for
# that to be robust (fewer than 1069 rows: 95% - 93% is less than three
# binomial standard deviations at 95%), at least 95% - 3 sqrt(0.95 0.05 /
# n), a one-sided test that it is not below 95%; fewer than 20 rows are
# not checked.  A last column says ok, FAIL or - (not checked).
#
# PMSIM and PAIRS name the programs [cmd/pmsim, cmd/pairs of this tree].
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
PMSIM=${PMSIM:-$top/cmd/pmsim}
PAIRS=${PAIRS:-$top/cmd/pairs}
min=10 max=1000000 popts='' rearm=interrupt S=64 seeds='1 2 3' xopts=''
all=0 check='' metrics=all
while getopts ac:k:M:m:p:r:S:s:x: c; do
	case $c in
	a) all=1 ;;
	c) check=$OPTARG ;;
	k) min=$OPTARG ;;
	M) metrics=$OPTARG ;;
	m) max=$OPTARG ;;
	p) popts=$OPTARG ;;
	r) rearm=$OPTARG ;;
	S) S=$OPTARG ;;
	s) seeds=$OPTARG ;;
	x) xopts=$OPTARG ;;
	*) echo "usage: coverage.sh [-a] [-c all|each] [-k min] [-M metrics] [-m max] [-p opts] [-r rearm] [-S S] [-s seeds] [-x opts] trace ..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "coverage.sh: no trace" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "$@"; do
	name=$(basename "$t" .pmr.zst)
	for seed in $seeds; do
		# shellcheck disable=SC2086
		"$PMSIM" -m alpha21264 --profileme=paired,S="$S",rearm="$rearm" \
		    --truth --no-pg --max="$max" --seed="$seed" $xopts "$t" |
		    "$PAIRS" -q -t -f tsv -m "$metrics" $popts |
		    awk -v tr="$name" -v seed="$seed" '
			BEGIN { OFS = "\t" }
			/^#S / {
				for (i = 1; i <= NF; i++) {
					if ($i == "W") W = $(i + 1) + 0
					if ($i == "effective") Se = $(i + 2) + 0
					if ($i == "sample") s = $(i + 1) + 0
				}
				next
			}
			/^#/ { next }
			{ print tr, seed, W * Se, s, $0 }'
	done
done >"$tmp/rows"
awk -F '\t' -v min="$min" -v all="$all" -v check="$check" '
BEGIN {
	split("execs retires aborts ab_misp ab_br ab_jmp ab_other " \
	    "icache_miss itlb_miss dcache_miss dtlb_miss llc_miss taken " \
	    "fallthru br_misp jmp_misp map_stall fu_conflict forward " \
	    "mshr_full btb_miss bad_path", c, " ")
	for (i in c)
		cnt[c[i]] = 1
	cnt["useful"] = cnt["useful_fwd"] = cnt["useful_bwd"] = 2
}
# fields: trace seed WS s key metric k est lo hi exact relerr
$11 == "-" { next }
{
	m = $6
	if (cnt[m] == 1)
		lam = $11 / $4
	else if (cnt[m] == 2)
		lam = $11 / $3
	else
		lam = $7
	if (lam < min)
		next
	if (!(m in seen)) {
		seen[m] = 1
		order[++nm] = m
	}
	if (!($1 in tseen)) {
		tseen[$1] = 1
		torder[++nt] = $1
	}
	for (j = 0; j < 2; j++) {
		key = (j ? "all" : $1) SUBSEP m
		n[key]++
		if ($9 == "-") {
			na[key]++
			continue
		}
		if ($9 == $10)
			zero[key]++
		if ($11 + 0 < $9 + 0)
			below[key]++
		else if ($11 + 0 > $10 + 0)
			above[key]++
		else
			cov[key]++
	}
	if (all && ($9 == "-" || $11 + 0 < $9 + 0 || $11 + 0 > $10 + 0))
		print "miss", $0 > "/dev/stderr"
}
END {
	printf "#trace\tmetric\trows\tcovered\tbelow\tabove\tzero\tna%s\n",
	    check != "" ? "\tcheck" : ""
	torder[++nt] = "all"
	for (i = 1; i <= nt; i++)
		for (j = 1; j <= nm; j++) {
			key = torder[i] SUBSEP order[j]
			if (!(key in n))
				continue
			d = n[key] - na[key]
			printf "%s\t%s\t%d\t%.1f\t%d\t%d\t%d\t%d", torder[i],
			    order[j], n[key], (d > 0 ? 100 * cov[key] / d : 0),
			    below[key], above[key], zero[key], na[key]
			if (check == "") {
				printf "\n"
				continue
			}
			if (d < 20 || (check == "all" && torder[i] != "all")) {
				printf "\t-\n"
				continue
			}
			lim = 0.95 - 3 * sqrt(0.95 * 0.05 / d)
			if (lim > 0.93)
				lim = 0.93
			if (cov[key] / d >= lim) {
				printf "\tok\n"
			} else {
				printf "\tFAIL\n"
				bad++
			}
		}
	exit bad > 0
}' "$tmp/rows"
