#!/usr/bin/env bats
# pairs: exact estimates on the hand-built streams of tests/data/pairs
# (each expected value worked out in the comment beside it), every option,
# merging, bad input, and the statistical acceptance against pmsim's TRUTH
# on bundled traces with fixed seeds.

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
}

# mk NAME [SED]: builds $T/NAME.pmr from tests/data/pairs/NAME.tsv (edited
# by the sed expression SED), padding short lines with zeros up to the
# field count pmview -l gives (so that fields appended to the records
# later do not break the inputs).
mk() {
	sed -e "${2:-}" "$DATA/pairs/$1.tsv" >"$T/$1.tsv"
	"$PMVIEW" -l | awk -F '\t' -v OFS='\t' '
		NR == FNR { if ($1 == "field") n[$2]++; next }
		/^#/ || NF == 0 { next }
		{ while (NF < n[$1] + 1) $(NF + 1) = 0; print }' - \
	    "$T/$1.tsv" | "$PMVIEW" -r --no-pg -o "$T/$1.pmr"
}

# val KEY METRIC COLUMN: prints column (est, lo, hi, exact, relerr, k) of
# the TSV line of KEY and METRIC in $output.
val() {
	printf '%s\n' "$output" | awk -F '\t' -v k="$1" -v m="$2" -v c="$3" '
		/^#key/ { for (i = 1; i <= NF; i++) col[$i] = i; next }
		/^#/ { next }
		$1 == k && $2 == m { print $(col[c]); exit }'
}

# near A B: succeeds if |A - B| <= 1e-6 * max(1, |B|).
near() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; if (m < 1) m = 1
		exit !(d <= 1e-6 * m) }' || { echo "got $1, expected $2"; return 1; }
}

@test "pairs --help prints the options on stdout" {
	run -0 --separate-stderr "$PAIRS" --help
	[[ $output == *"--truth"* ]]
	[[ $output == *"--window=N"* ]]
	[[ $output == *"[pc]"* ]]
	[ -z "$stderr" ]
}

@test "pairs: a bad option is a usage error" {
	run -2 --separate-stderr "$PAIRS" --nonesuch
	[[ $stderr == *"usage: pairs"* ]]
	[[ $stderr == *"Try 'pairs --help'."* ]]
}

@test "pairs: an unknown metric is a usage error" {
	mk single
	run -2 --separate-stderr "$PAIRS" -m nonesuch "$T/single.pmr"
	[[ $stderr == *"unknown metric 'nonesuch'"* ]]
}

@test "pairs -V prints the version" {
	run -0 "$PAIRS" -V
	[[ $output == "pairs "* ]]
}

@test "pairs -l lists every metric with its definition" {
	run -0 "$PAIRS" -l
	[[ $output == *"wasted "*"wasted issue slots"*"[pairs]"* ]]
	[[ $output == *"lat_ld "* ]]
	[ "${#lines[@]}" -gt 40 ]
}

@test "pairs: single-sample counts are s k with s = fetched / samples" {
	mk single
	run -0 "$PAIRS" -f tsv -m all "$T/single.pmr"
	near "$(val 0x1000 execs est)" 600	# 6 samples x 100
	near "$(val 0x1000 retires est)" 400
	near "$(val 0x1000 aborts est)" 200
	near "$(val 0x1000 ab_br est)" 100	# trap 1
	near "$(val 0x1000 ab_jmp est)" 100	# trap 2
	near "$(val 0x1000 dcache_miss est)" 200
	near "$(val 0x1000 bad_path est)" 100
	near "$(val 0x2000 taken est)" 200
	near "$(val 0x2000 fallthru est)" 200
	near "$(val 0x2000 br_misp est)" 200
}

@test "pairs: count intervals are Poisson score intervals" {
	mk single
	run -0 "$PAIRS" -f tsv -m execs "$T/single.pmr"
	# k = 6, z = 1.959964: 100 (6 + z^2/2 -+ z sqrt(6 + z^2/4))
	near "$(val 0x1000 execs lo)" 274.9853816
	near "$(val 0x1000 execs hi)" 1309.160501
	[ "$(val 0x1000 execs k)" = 6 ]
}

@test "pairs: rates are proportions with Wilson intervals" {
	mk single
	run -0 "$PAIRS" -f tsv -m ret_rate,dcache_rate,misp_rate "$T/single.pmr"
	near "$(val 0x1000 ret_rate est)" 0.6666666667	# 4 of 6
	near "$(val 0x1000 ret_rate lo)" 0.2999933149
	near "$(val 0x1000 ret_rate hi)" 0.903228589
	near "$(val 0x1000 dcache_rate est)" 0.5		# 2 of 4 retired
	near "$(val 0x2000 misp_rate est)" 0.5		# 2 of 4 retired
}

@test "pairs: latency means, percentiles and stage totals of retired samples" {
	mk single
	run -0 "$PAIRS" -f tsv -m all "$T/single.pmr"
	near "$(val 0x1000 lat_md est)" 2.5	# (3 + 1 + 5 + 1) / 4
	near "$(val 0x1000 lat_xr est)" 6.5	# (4 + 1 + 20 + 1) / 4
	near "$(val 0x1000 lat_ld est)" 11.5	# (10 + 3 + 30 + 3) / 4
	near "$(val 0x1000 lat_total est)" 13.25
	near "$(val 0x1000 cyc_xr est)" 2600	# 100 x 26
	near "$(val 0x1000 lat_xr_p50 est)" 1	# 1 1 4 20
	near "$(val 0x1000 lat_xr_p90 est)" 16	# 20 is in [16, 32)
	# in progress: 10 + 4 + 27 + 4 retired, 4 + 7 aborted (rule a)
	near "$(val 0x1000 inprog est)" 5600
	# mean interval (pairs.1, Confidence intervals): the t interval with
	# the pooled variance reaches 16.97; the excess over the floor m = 1
	# (3 0 19 0: E = 22, sum e^2 = 370, c = 370 / 22) as c times a
	# Poisson count, score upper bound 6.1808 of 22 / c, reaches
	# 1 + c 6.1808 / 4; lo is clipped to 0
	near "$(val 0x1000 lat_xr hi)" 26.98757023
	[ "$(val 0x1000 lat_xr lo)" = 0 ]
}

@test "pairs: paired metrics follow spec 4.4 on hand-built pairs" {
	mk paired
	run -0 "$PAIRS" -f tsv -m all "$T/paired.pmr"
	# S = 200 / 2 = 100 per pair, s = 50 per member, W = 4, C = 4
	near "$(val 0xa0 execs est)" 100
	near "$(val 0xa0 inprog est)" 400	# s (4 + 4)
	near "$(val 0xa0 useful est)" 400	# W S U, U = 1 (b issues at 2)
	near "$(val 0xa0 useful_fwd est)" 400
	near "$(val 0xa0 avail est)" 1600	# C s L
	near "$(val 0xa0 wasted est)" 1200
	near "$(val 0xa0 wasted_frac est)" 0.75	# 1 - 2 W U / (C L)
	near "$(val 0xa0 useful_rate est)" 1	# 2 W U / L
	near "$(val 0xa0 inflight est)" 4	# 2 W (3 + 1) / 8
	near "$(val 0xa0 useful_conc est)" 3	# 2 W 3 / 8
	near "$(val 0xb0 useful_bwd est)" 400	# a issues at 2, in [1, 3)
	near "$(val 0xb0 wasted est)" 0
	near "$(val 0xc0 wasted est)" 400	# aborted: no useful partner
	# avail's upper side (5275.73 - 1600) and useful's lower one, W S (U -
	# lo), lo = 0.0522 the score bound of U - 1/2, in quadrature less the
	# covariance z^2 S^2 C W sum ul: 1200 + sqrt(3675.73^2 + 379.12^2 -
	# 2458530)
	near "$(val 0xa0 wasted hi)" 4546.072719
	# two members of equal l: L is not clear of 0 at 95%, no interval
	[ "$(val 0xa0 wasted_frac lo)" = - ]
}

@test "pairs --by=all sums every pc" {
	mk paired
	run -0 "$PAIRS" -f tsv -b all -m execs,wasted,wasted_frac "$T/paired.pmr"
	near "$(val all execs est)" 200
	near "$(val all wasted est)" 1600
	near "$(val all wasted_frac est)" 0.6666666667	# 1 - 16 / 48
}

@test "pairs --by=image groups pcs by IMAGE records" {
	mk single
	run -0 "$PAIRS" -f tsv -b image -m execs "$T/single.pmr"
	near "$(val /bin/app execs est)" 600
	near "$(val /lib/libx.so execs est)" 400
}

@test "pairs --by=image without IMAGE records falls back to pcs with a note" {
	mk paired
	run -0 --separate-stderr "$PAIRS" -f tsv -b image -m execs "$T/paired.pmr"
	[[ $stderr == *"no IMAGE records"* ]]
	near "$(val 0xa0 execs est)" 100
}

@test "pairs --by=proc names procedures from the ELF symbols of IMAGE files" {
	# An ELF with symbols: the chain microbenchmark, built here.
	cc -nostdlib -static -no-pie -o "$T/chain" "$TOP/traces/micro/chain.S"
	mk proc "s|@CHAIN@|$T/chain|"
	run -0 --separate-stderr "$PAIRS" -f tsv -b proc -m execs "$T/proc.pmr"
	near "$(val '_start (chain)' execs est)" 200
	near "$(val unknown execs est)" 100
	[ -z "$stderr" ]
}

@test "pairs --by=proc makes one row of an image without symbols" {
	mk single
	run -0 --separate-stderr "$PAIRS" -f tsv -b proc -m execs "$T/single.pmr"
	[[ $stderr == "pairs: no symbols for '/bin/app' (No such file or directory): its pcs make one row" ]]
	near "$(val /bin/app execs est)" 600
}

@test "pairs --truth prints the exact value and the relative error" {
	mk single
	run -0 "$PAIRS" -t -f tsv -m execs,lat_xr,misp_rate "$T/single.pmr"
	near "$(val 0x1000 execs exact)" 550
	near "$(val 0x1000 execs relerr)" 0.0909091	# 600 / 550 - 1
	near "$(val 0x1000 lat_xr exact)" 6.5	# 2470 / 380
	near "$(val 0x2000 misp_rate exact)" 0.525	# 210 / 400
}

@test "pairs --truth prints the accuracy summary" {
	mk single
	run -0 "$PAIRS" -t --min-samples=0 -m execs "$T/single.pmr"
	# lambda = 5.5 and 4: 600/550 and 400/400 are inside 1 +- 1/sqrt
	[[ $output == *"# truth execs: 2 rows with expected k >= 0, 100.0% inside 1 +- 1/sqrt(k), 100.0% inside 1 +- 2/sqrt(k)"* ]]
}

@test "pairs --min-samples leaves out rows with fewer expected samples" {
	mk single
	run -0 "$PAIRS" -t --min-samples=5 -m execs "$T/single.pmr"
	[[ $output == *"# truth execs: 1 rows with expected k >= 5"* ]]
}

@test "pairs --sort and --top pick the largest rows" {
	mk paired
	run -0 "$PAIRS" -f tsv -s wasted -n 2 -m wasted "$T/paired.pmr"
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f1 | tr '\n' ' ')" = \
	    "0xa0 0xc0 " ]
}

@test "pairs --pc keeps a range of pcs" {
	mk single
	run -0 "$PAIRS" -f tsv -p 0x1800-0x2fff -m execs "$T/single.pmr"
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 1 ]
	near "$(val 0x2000 execs est)" 400
}

@test "pairs --pc rejects a reversed range" {
	run -2 --separate-stderr "$PAIRS" -p 0x20-0x10
	[[ $stderr == *"--pc '0x20-0x10'"* ]]
}

@test "pairs -f json writes one object per row" {
	mk paired
	run -0 "$PAIRS" -f json -t -m wasted "$T/paired.pmr"
	printf '%s\n' "$output" | jq -e . >/dev/null
	[ "$(printf '%s\n' "$output" | jq -r 'select(.key == "0xa0") | .wasted.est')" = 1200 ]
	[ "$(printf '%s\n' "$output" | jq -r 'select(.header) | .header.W')" = 4 ]
}

@test "pairs prints a header with machine, S, W, samples and effective S" {
	mk paired
	run -0 "$PAIRS" "$T/paired.pmr"
	[[ ${lines[1]} == "# machine: handmade (config 00000000000000bb)" ]]
	[[ $output == *"# S 50, W 4, C 4, samples 0, pairs 2, fetched 200, effective S 100.0"* ]]
	[[ $output == *"wasted_frac"* ]]
}

@test "pairs --nominal scales by the S of META" {
	mk single
	run -0 "$PAIRS" -f tsv --nominal -m execs "$T/single.pmr"
	near "$(val 0x1000 execs est)" 600	# S = 100 in both
	"$PMVIEW" -f tsv "$T/single.pmr" | grep -v '^STATS' | "$PMVIEW" -r --no-pg -o "$T/nostats.pmr"
	run -0 "$PAIRS" -f tsv -m execs "$T/nostats.pmr"
	near "$(val 0x1000 execs est)" 600
}

@test "pairs --window overrides the W of META" {
	mk paired
	run -0 "$PAIRS" -f tsv -W 8 -m useful "$T/paired.pmr"
	near "$(val 0xa0 useful est)" 800	# W S U = 8 x 100
}

@test "pairs --width sets the issue width C" {
	mk paired
	run -0 "$PAIRS" -f tsv -C 2 -m avail "$T/paired.pmr"
	near "$(val 0xa0 avail est)" 800	# C s L = 2 x 50 x 8
}

@test "pairs --aborts=zero leaves aborted samples out of L" {
	mk paired
	run -0 "$PAIRS" -f tsv --aborts=zero -m inprog "$T/paired.pmr"
	near "$(val 0xc0 inprog est)" 0
	run -2 "$PAIRS" --aborts=maybe
}

@test "pairs --confidence changes the interval" {
	mk single
	run -0 "$PAIRS" -f tsv --confidence=0.6826894921 -m execs "$T/single.pmr"
	# z = 1: 100 (6.5 + sqrt(6.25))
	near "$(val 0x1000 execs hi)" 900
	run -2 "$PAIRS" --confidence=1.5
}

@test "pairs --hist prints the distribution of a latency" {
	mk single
	run -0 "$PAIRS" -f tsv --hist=xr -p 0x1000-0x1000 "$T/single.pmr"
	# retired xr of 0x1000: 4 1 20 1
	[ "$(printf '%s\n' "$output" | grep -v '^#' | cut -f3-7 | tr '\t\n' ', ')" = \
	    "1,1,2,0.5,200 4,4,1,0.25,100 16,31,1,0.25,100 " ]
	run -2 "$PAIRS" --hist=nonesuch
}

@test "pairs --if keeps the samples with (or without) an event" {
	mk single
	run -0 --separate-stderr "$PAIRS" -t -f tsv --if=dcache_miss -m execs,lat_ld "$T/single.pmr"
	near "$(val 0x1000 execs est)" 200
	near "$(val 0x1000 lat_ld est)" 20	# (10 + 30) / 2
	[ "$(val 0x1000 execs exact)" = - ]	# TRUTH counts every execution
	[[ $output == *"#only samples with events dcache_miss"* ]]
	run -0 "$PAIRS" -f tsv --if='!retired' -m execs "$T/single.pmr"
	near "$(val 0x1000 execs est)" 200
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 1 ]
	run -2 "$PAIRS" --if=nonesuch
}

@test "pairs -o writes the report to a file" {
	mk single
	run -0 "$PAIRS" -o "$T/out.txt" "$T/single.pmr"
	[ -z "$output" ]
	grep -q '^0x1000 ' "$T/out.txt"
}

@test "pairs -f pmr writes METRIC records that pmview prints" {
	mk single
	run -0 "$PAIRS" -f pmr -o "$T/m.pmr" "$T/single.pmr"
	run -0 "$PMVIEW" -f tsv -t METRIC "$T/m.pmr"
	[[ $output == *"METRIC	0x1000	0	7	6	600	400	nan	"* ]]
	run -0 "$PMVIEW" -f tsv -t IMAGE "$T/m.pmr"	# passed through
	[[ $output == *"/bin/app"* ]]
}

@test "pairs merges METRIC records of shards into the one-run result" {
	mk paired
	# shard 1: pair 0 with fetched 120; shard 2: pair 1 with fetched 80
	"$PMVIEW" -f tsv "$T/paired.pmr" | awk '!/^PAIR\t1\t/' |
	    sed 's/^\(STATS\t1\t[^\t]*\t[^\t]*\t[^\t]*\t\)200/\1120/' |
	    "$PMVIEW" -r --no-pg -o "$T/s1.pmr"
	"$PMVIEW" -f tsv "$T/paired.pmr" | awk '!/^PAIR\t0\t/ && !/^TRUTH/' |
	    sed 's/^\(STATS\t1\t[^\t]*\t[^\t]*\t[^\t]*\t\)200/\180/' |
	    "$PMVIEW" -r --no-pg -o "$T/s2.pmr"
	"$PAIRS" -f pmr -o "$T/m1.pmr" "$T/s1.pmr"
	"$PAIRS" -f pmr -o "$T/m2.pmr" "$T/s2.pmr"
	"$PAIRS" -t -f tsv -m all "$T/paired.pmr" >"$T/one.tsv"
	cat "$T/m1.pmr" "$T/m2.pmr" | "$PAIRS" -t -f tsv -m all >"$T/merged.tsv"
	run -0 diff <(grep -v '^#input' "$T/one.tsv") <(grep -v '^#input' "$T/merged.tsv")
	cat "$T/s1.pmr" "$T/s2.pmr" | "$PAIRS" -t -f tsv -m all >"$T/cat.tsv"
	run -0 diff <(grep -v '^#input' "$T/one.tsv") <(grep -v '^#input' "$T/cat.tsv")
}

# pval KEY [KEY2] COLUMN: prints column (k, n, est, lo, hi, frac, flo, fhi)
# of the row of KEY (and KEY2) of a profile TSV report in $output.
pval() {
	local k=$1 k2= c=$2
	[ $# -eq 3 ] && { k2=$2; c=$3; }
	printf '%s\n' "$output" | awk -F '\t' -v k="$k" -v k2="$k2" -v c="$c" '
		/^#(page|set|pc)\t/ { sub(/^#/, ""); for (i = 1; i <= NF; i++) col[$i] = i; next }
		/^#/ { next }
		$1 == k && (k2 == "" || $2 == k2) { print $(col[c]); exit }'
}

@test "pairs --by=page: D-cache misses of retired loads and stores per page" {
	mk addr
	run -0 "$PAIRS" -f tsv -b page "$T/addr.pmr"
	# samples 1, 2 (0x10000, 0x10040) and 3 (0x18000); 4 aborted, 5 hit
	[ "$(pval 0x10000 k)" = 2 ]
	[ "$(pval 0x10000 n)" = 3 ]
	near "$(pval 0x10000 est)" 200			# 2 x s = 100
	# k = 2, z = 1.959964: 100 (2 + z^2/2 -+ z sqrt(2 + z^2/4))
	near "$(pval 0x10000 lo)" 54.84721378
	near "$(pval 0x10000 hi)" 729.2986689
	near "$(pval 0x10000 frac)" 0.6666666667	# Wilson 2 of 3
	near "$(pval 0x10000 flo)" 0.2076596006
	near "$(pval 0x18000 est)" 100
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 2 ]
	run -0 "$PAIRS" -f tsv -b page --page-size=65536 "$T/addr.pmr"
	near "$(pval 0x10000 est)" 300			# all three in one page
	run -2 --separate-stderr "$PAIRS" --page-size=3000 "$T/addr.pmr"
	[[ $stderr == *"not a power of 2"* ]]
}

@test "pairs --by=set: D-cache misses per set, 64 KB 2-way 64-byte lines by default" {
	mk addr
	run -0 "$PAIRS" -f tsv -b set "$T/addr.pmr"
	# 512 sets: 0x10000/64 = 1024 -> 0, 0x10040 -> 1, 0x18000/64 = 1536 -> 0
	near "$(pval 0 est)" 200
	near "$(pval 1 est)" 100
	[ "$(pval 0 n)" = 3 ]
	run -0 "$PAIRS" -f tsv -b set --cache=65536,1,64 "$T/addr.pmr"
	near "$(pval 0 est)" 100			# 1024 sets: 0, 1, 512
	near "$(pval 1 est)" 100
	near "$(pval 512 est)" 100
	run -0 "$PAIRS" -b set "$T/addr.pmr"
	[[ ${lines[4]} == "set "*"samples"*"misses"* ]]
	[[ ${lines[5]} == "0 "*" 2 "*" 200 "* ]]
	run -2 --separate-stderr "$PAIRS" --cache=65536,3,64 "$T/addr.pmr"
	[[ $stderr == *"--cache"* ]]
}

@test "pairs -b page|set -t: exact D-cache misses from ATRUTH, merged through METRIC" {
	mk addr
	run -0 --separate-stderr "$PAIRS" -f tsv -b page -t "$T/addr.pmr"
	# page 0x10000: lines 0x10000 (3) and 0x10040 (1); 0x18000: 2; the
	# page of 0x20000 was never sampled, so it has no row
	[ "$(pval 0x10000 exact)" = 4 ]
	near "$(pval 0x10000 relerr)" 49		# 200 / 4 - 1
	[ "$(pval 0x18000 exact)" = 2 ]
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 2 ]
	# s = 100: lambda = 0.04 and 0.02, far outside; intervals miss too
	[[ $output == *"#truth: 2 sampled rows, 0.0% inside 1 +- 1/sqrt(l)"*"covers exact 0.0%"* ]]
	run -0 "$PAIRS" -f tsv -b set -t "$T/addr.pmr"
	# 512 sets: 0x10000, 0x18000 and 0x20000 -> set 0, 0x10040 -> 1
	[ "$(pval 0 exact)" = 10 ]
	[ "$(pval 1 exact)" = 1 ]
	run -0 "$PAIRS" -f tsv -b set -t --cache=65536,1,64 "$T/addr.pmr"
	[ "$(pval 0 exact)" = 8 ]			# 1024 sets: 3 + 5
	[ "$(pval 512 exact)" = 2 ]
	run -0 "$PAIRS" -f tsv -b page -t --page-size=64 "$T/addr.pmr"
	[ "$(pval 0x10000 exact)" = 3 ]
	[ "$(pval 0x10040 exact)" = 1 ]
	# a pc filter keeps the truth of those pcs only
	run -0 "$PAIRS" -f tsv -b page -t -p 0x1004-0x1004 "$T/addr.pmr"
	[ "$(pval 0x18000 exact)" = 2 ]
	# METRIC records carry the truth: a merged run prints the same
	"$PAIRS" -f pmr -o "$T/a.metric" "$T/addr.pmr"
	run -0 "$PAIRS" -f tsv -b set -t "$T/a.metric"
	[ "$(pval 0 exact)" = 10 ]
	run -0 "$PAIRS" -f tsv -b set -t "$T/a.metric" "$T/a.metric"
	[ "$(pval 0 exact)" = 20 ]
	# lines larger than the rows, or --if: no exact column, one note
	run -0 --separate-stderr "$PAIRS" -f tsv -b set -t --cache=65536,2,32 "$T/addr.pmr"
	[[ $output != *exact* ]]
	[[ $stderr == *"ATRUTH lines (64 bytes) are larger than the --cache line"* ]]
	run -0 --separate-stderr "$PAIRS" -f tsv -b page -t --if=retired "$T/addr.pmr"
	[[ $output != *exact* ]]
	[[ $stderr == *"no exact values"*"--if"* ]]
	mk addr 's/^ATRUTH\t0x1008\t0x20000\t64/ATRUTH\t0x1008\t0x20000\t48/'
	run -1 --separate-stderr "$PAIRS" -b page "$T/addr.pmr"
	[[ $stderr == *"bad ATRUTH record: line 0x20000 of 48 bytes"* ]]
}

@test "pairs --edges: CFG edges and indirect targets of retired transfers" {
	mk addr
	run -0 "$PAIRS" -f tsv --edges "$T/addr.pmr"
	# 0x2000: taken to 0x3000 twice, not taken once
	near "$(pval 0x2000 0x3000 est)" 200
	near "$(pval 0x2000 0x3000 frac)" 0.6666666667
	near "$(pval 0x2000 fallthru est)" 100
	[ "$(pval 0x2000 fallthru n)" = 3 ]
	# indirect jump 0x2010: one sample to each of 0x4000 and 0x5000
	near "$(pval 0x2010 0x4000 frac)" 0.5
	near "$(pval 0x2010 0x4000 flo)" 0.09453120562	# Wilson 1 of 2
	near "$(pval 0x2010 0x5000 est)" 100
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 4 ]
	run -0 "$PAIRS" -f json --edges -n 1 "$T/addr.pmr"
	[[ $output == *'{"pc":"0x2000","target":"0x3000","k":2,"n":3,"est":200,'* ]]
	[ "$(printf '%s\n' "$output" | grep -c '^{')" = 1 ]
}

@test "pairs --paths: counts per pc by the last N history bits" {
	mk addr
	run -0 "$PAIRS" -f tsv --paths=2 "$T/addr.pmr"
	# 0x2000 histories 1011, 0011, 1010 -> 11 twice, 10 once
	near "$(pval 0x2000 11 est)" 200
	near "$(pval 0x2000 10 est)" 100
	near "$(pval 0x2000 10 frac)" 0.3333333333
	# 0x2010: 01 (2 bits valid) and 00011101 -> 01
	near "$(pval 0x2010 01 est)" 200
	[ "$(pval 0x2010 01 n)" = 2 ]
	run -0 "$PAIRS" -f tsv --paths=4 "$T/addr.pmr"
	# 0x2010's 2-bit history is too short for 4 bits
	near "$(pval 0x2010 1101 est)" 100
	[ "$(pval 0x2010 1101 n)" = 1 ]
	[ "$(pval 0x2000 1011 k)" = 1 ]
	run -2 --separate-stderr "$PAIRS" --paths=65 "$T/addr.pmr"
	[[ $stderr == *"--paths"* ]]
}

@test "pairs: profiles merge through METRIC records and honour --pc" {
	mk addr
	"$PAIRS" -f pmr -o "$T/m.pmr" "$T/addr.pmr"
	run -0 bash -c "cat '$T/m.pmr' '$T/m.pmr' | '$PAIRS' -f tsv --edges"
	near "$(pval 0x2000 0x3000 est)" 400		# 4 samples, s = 100
	near "$(pval 0x2000 0x3000 frac)" 0.6666666667
	run -0 "$PAIRS" -f tsv -b page -p 0x1004-0x1004 "$T/m.pmr"
	near "$(pval 0x18000 est)" 100
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 1 ]
}

@test "pairs --paths and --edges pool both members of pairs (s = S/2)" {
	mk paired
	run -0 "$PAIRS" -f tsv --paths=1 "$T/paired.pmr"
	# s = 50; 0xa0 is a member of both pairs, history 0 (4 bits valid)
	near "$(pval 0xa0 0 est)" 100
	[ "$(pval 0xa0 0 n)" = 2 ]
	near "$(pval 0xb0 0 est)" 50
	near "$(pval 0xc0 0 est)" 50		# aborted: still an execution
	run -0 "$PAIRS" -f tsv --edges "$T/paired.pmr"
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 0 ]	# no branches
	run -2 --separate-stderr "$PAIRS" --edges --hist=ld "$T/paired.pmr"
}

@test "pairs --paths --partner: history paths with the earlier member of retired pairs" {
	mk paired
	run -0 "$PAIRS" -f tsv --paths=2 --partner "$T/paired.pmr"
	# pair 0 only (pair 1's b aborted): b 0xb0, history 00, partner 0xa0;
	# W S k = 4 x 100 x 1, Poisson k = 1: 400 (1 + z^2/2 -+ z sqrt(1 + z^2/4))
	[ "$(pval 0xb0 00 k)" = 1 ]
	[[ $output == *$'\n0xb0\t00\t0xa0\t1\t1\t400\t'* ]]
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 1 ]
	run -0 "$PAIRS" -f json --paths=2 --partner "$T/paired.pmr"
	[[ $output == *'"partner":"0xa0","k":1,"n":1,"est":400,"lo":70.60982189,'* ]]
	# merged through METRIC records
	"$PAIRS" -f pmr -o "$T/m.pmr" "$T/paired.pmr"
	run -0 "$PAIRS" -f tsv --paths=2 --partner "$T/m.pmr" "$T/m.pmr"
	[[ $output == *$'\n0xb0\t00\t0xa0\t2\t2\t'* ]]
	run -2 --separate-stderr "$PAIRS" --partner "$T/paired.pmr"
	[[ $stderr == *"--partner needs --paths"* ]]
}

@test "pairs refuses binary output to a terminal" {
	mk single
	run -1 --separate-stderr script -qec "$PAIRS -f pmr $T/single.pmr" /dev/null
	[[ $output == *"refusing"* ]]
}

@test "pairs: a bare run on a terminal prints the synopsis" {
	run -0 script -qec "$PAIRS" /dev/null
	[[ $output == "usage: pairs "* ]]
}

@test "pairs: a stream without samples is an error" {
	mk nosamples
	run -1 --separate-stderr "$PAIRS" "$T/nosamples.pmr"
	[[ $stderr == "pairs: '$T/nosamples.pmr': no SAMPLE records" ]]
	assert_one_line_stderr
}

@test "pairs: PAIR records without W are an error" {
	mk nowindow
	run -1 --separate-stderr "$PAIRS" "$T/nowindow.pmr"
	[[ $stderr == *"'$T/nowindow.pmr': PAIR records without a pair window"* ]]
	assert_one_line_stderr
	run -0 "$PAIRS" -W 4 "$T/nowindow.pmr"
}

@test "pairs: shards of different configurations are an error" {
	mk single
	mk other-config
	run -1 --separate-stderr "$PAIRS" "$T/single.pmr" "$T/other-config.pmr"
	[[ $stderr == *"'$T/other-config.pmr': mismatched shards: config-digest"* ]]
	assert_one_line_stderr
}

@test "pairs: a truncated stream is an error" {
	mk single
	head -c 300 "$T/single.pmr" >"$T/trunc.pmr"
	run -1 --separate-stderr "$PAIRS" "$T/trunc.pmr"
	[[ $stderr == "pairs: '$T/trunc.pmr': "* ]]
	assert_one_line_stderr
}

@test "pairs: a missing file is an error" {
	run -1 --separate-stderr "$PAIRS" "$T/nonesuch.pmr"
	[[ $stderr == "pairs: cannot open '$T/nonesuch.pmr': No such file or directory" ]]
}

@test "pairs reads standard input" {
	mk single
	run -0 bash -c "'$PAIRS' -f tsv -m execs < '$T/single.pmr'"
	near "$(val 0x1000 execs est)" 600
}

# Statistical acceptance (spec 5.2 X1): single samples, S = 64, Bernoulli
# selection (rearm=select), 5 bundled traces pooled, seed 7.  A row is
# scored when its expected number of samples is >= 10.
@test "pairs: retire counts of pmsim runs are inside 1 +- 1/sqrt(k) for >= 65% of pcs" {
	[ -x "$PMSIM" ] || skip "no pmsim"
	local t
	for t in gzip cc1 sort xz python; do
		"$PMSIM" -m alpha21264 --profileme=single,S=64,rearm=select \
		    --truth --no-pg --seed=7 "$TOP/traces/$t.pmr.zst" |
		    "$PAIRS" -t -q -f json -m retires | grep '"truth"'
	done >"$T/sum.json"
	run -0 jq -s -r '[(map(.truth.rows) | add),
	    (map(.truth.in1 * .truth.rows) | add),
	    (map(.truth.in2 * .truth.rows) | add)] | @tsv' "$T/sum.json"
	echo "$output"
	awk -v l="$output" 'BEGIN { split(l, a, "\t")
		exit !(a[1] >= 1000 && a[2] / a[1] >= 0.65 && a[3] / a[1] >= 0.95) }'
}

# Paired sampling scored against TRUTH: on gzip (5 M instructions) at
# S = 256 the 10 most wasteful pcs are within 15% of exact.
@test "pairs: wasted slots of the top 10 pcs are within 15% of TRUTH" {
	[ -x "$PMSIM" ] || skip "no pmsim"
	"$PMSIM" -m alpha21264 --profileme=paired,S=256,W=96 --truth --no-pg \
	    --seed=7 "$TOP/traces/gzip.pmr.zst" -o "$T/gz.pmr"
	run -0 --separate-stderr "$PAIRS" -t -f tsv -s wasted -n 10 -m wasted "$T/gz.pmr"
	echo "$output"
	[ "$(printf '%s\n' "$output" | awk -F '\t' '!/^#/ && ($8 > 0.15 || $8 < -0.15)' | wc -l)" = 0 ]
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 10 ]
}

@test "pairs on cat of two pmsim shards equals merging their METRIC records" {
	[ -x "$PMSIM" ] || skip "no pmsim"
	"$PMSIM" --profileme=paired,S=128,W=96 --truth --no-pg --seed=1 \
	    --max=50000 "$TOP/traces/grep.pmr.zst" -o "$T/a.pmr"
	"$PMSIM" --profileme=paired,S=128,W=96 --truth --no-pg --seed=2 \
	    --max=50000 "$TOP/traces/sort.pmr.zst" -o "$T/b.pmr"
	cat "$T/a.pmr" "$T/b.pmr" | "$PAIRS" -t -f tsv -m all >"$T/direct.tsv"
	"$PAIRS" -f pmr -z -o "$T/ma.pmr.zst" "$T/a.pmr"
	"$PAIRS" -f pmr -o "$T/mb.pmr" "$T/b.pmr"
	cat "$T/ma.pmr.zst" "$T/mb.pmr" | "$PAIRS" -t -f tsv -m all >"$T/merged.tsv"
	run -0 diff "$T/direct.tsv" "$T/merged.tsv"
	[ "$(grep -vc '^#' "$T/direct.tsv")" -gt 1000 ]
}

@test "pmsim paired sampling with the default window pipes straight into pairs" {
	run -0 bash -o pipefail -c "'$PMSIM' -m alpha21264 --profileme=paired,S=500 --truth '$TOP/traces/grep.pmr.zst' | '$PAIRS' --truth --top=3 -f tsv"
	[[ $output == *"W 96"* || $output == *"W=96"* ]]
	[[ $output == *"truth retires:"* ]]
}

# cs_trace LISTING OUT: writes the ChampSim trace of LISTING (a line per
# instruction: pc, class i (integer), c (conditional branch, then t or n)
# or j (jump)), with ChampSim's register conventions (26 ip, 25 flags).
cs_trace() {
	perl -ne '
		next if /^#/ || !/\S/;
		my ($pc, $c, $t) = split;
		my @d = (1, 0); my @s = (2, 0, 0, 0); my ($br, $tk) = (0, 0);
		if ($c eq "c") { @d = (26, 0); @s = (26, 25, 0, 0); $br = 1;
			$tk = $t eq "t" ? 1 : 0 }
		elsif ($c eq "j") { @d = (26, 0); @s = (0, 0, 0, 0); $br = 1;
			$tk = 1 }
		print pack("Q<CCC2C4Q<2Q<4", hex($pc), $br, $tk, @d, @s,
		    0, 0, 0, 0, 0, 0);' "$1" >"$2"
}

# rb MODE SCHEME COLUMN: the column (success ok wrong ambiguous none) of
# the --rebuild line of MODE and SCHEME in the JSON $output.
rb() {
	printf '%s\n' "$output" | jq -r --arg m "$1" --arg s "$2" --arg c "$3" \
	    'select(.rebuild) | .rebuild.schemes[] |
	     select(.mode == $m and .scheme == $s) | .[$c]'
}

# The trace of tests/data/pairs/path.trace and the pairs of path.tsv, one
# history bit each (no calls, so both walks agree):
#  0x10c (pair 0 a, history 1): its one predecessor 0x100, taken: every
#    scheme finds [0x10c 0x100], the true path.
#  0x110 (pair 0 b, history 1): predecessors 0x108 (3 times) and 0x10c
#    (once).  Counts take 0x108 -> 0x104 -> 0x100: wrong.  History keeps
#    only 0x10c <- 0x100 taken: right; pairs too (0x10c within d = 1).
#  0x204 (pair 1 a, history 0): one predecessor, 0x200 not taken: right.
#  0x220 (pair 1 b, history 1): predecessors 0x200 taken, 0x204 taken and
#    0x20c, once each.  Counts take the first seen, 0x200: wrong.  History
#    keeps 0x200 and 0x204 (0x20c <- 0x208 <- 0x204 is not taken):
#    ambiguous.  Pairs drop [0x220 0x200], which lacks the partner 0x204
#    within d = 1 node: right.
# So counts 2 right 2 wrong, history 3 right 1 ambiguous, pairs 4 right.
@test "pairs --rebuild: the three schemes on a hand-built trace" {
	mk path
	cs_trace "$DATA/pairs/path.trace" "$T/path.champsim"
	run -0 "$PAIRS" -f json -b all -m execs --rebuild="$T/path.champsim" \
	    "$T/path.pmr"
	echo "$output"
	for m in intra inter; do
		[ "$(rb $m counts ok) $(rb $m counts wrong)" = "2 2" ]
		[ "$(rb $m history ok) $(rb $m history ambiguous)" = "3 1" ]
		[ "$(rb $m pairs ok) $(rb $m pairs success)" = "4 1" ]
	done
	[ "$(printf '%s\n' "$output" | jq 'select(.rebuild) | .rebuild.scored')" = 4 ]
}

@test "pairs --rebuild: text and TSV reports have the scheme table" {
	mk path
	cs_trace "$DATA/pairs/path.trace" "$T/path.champsim"
	run -0 "$PAIRS" -b all --rebuild="$T/path.champsim" "$T/path.pmr"
	[[ $output == *"# paths rebuilt from '$T/path.champsim': 33 instructions, CFG of 13 pcs"* ]]
	[[ $output == *"# intra  history    75.00%          3          0          1"* ]]
	run -0 "$PAIRS" -b all -f tsv --rebuild="$T/path.champsim" "$T/path.pmr"
	[[ $output == *"#inter  pairs     100.00%          4"* ]]
}

# Exact counts from the trace: 0x204 falls through once in the measured
# region (it is taken once too); 0x220 runs three times, twice after a
# taken branch (history 1), 0x204 twice after 0x200 not taken.
@test "pairs --rebuild -t: exact counts of --edges and --paths rows" {
	mk path
	cs_trace "$DATA/pairs/path.trace" "$T/path.champsim"
	run -0 "$PAIRS" -t -f tsv --edges --rebuild="$T/path.champsim" \
	    "$T/path.pmr"
	[[ $output == *"#pc	target	k	n	est	lo	hi	frac	flo	fhi	exact	relerr"* ]]
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "0x204" { print $2, $11 }')" = "fallthru 1" ]
	run -0 "$PAIRS" -t -f tsv --paths=1 --rebuild="$T/path.champsim" \
	    "$T/path.pmr"
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "0x220" { print $2, $3, $11 }')" = "1 1 2" ]
	[ "$(printf '%s\n' "$output" | awk -F '\t' '$1 == "0x204" { print $2, $11 }')" = "0 2" ]
}

@test "pairs --rebuild: a missing trace is one line on stderr and status 1" {
	mk path
	run -1 --separate-stderr "$PAIRS" --rebuild="$T/none.champsim" "$T/path.pmr"
	assert_one_line_stderr
	[[ $stderr == *"'$T/none.champsim'"* ]]
}

@test "pairs --rebuild cannot write METRIC records" {
	mk path
	run -2 --separate-stderr "$PAIRS" -f pmr --rebuild=x "$T/path.pmr"
	[[ $stderr == *"--rebuild cannot be combined with -f pmr"* ]]
}

# Spec A11: in straight-line code (a loop of one block) every scheme
# finds every path.
@test "pairs --rebuild: straight-line code is rebuilt 100%" {
	"$PMSIM" --profileme=paired,S=64 --max=100000 --no-pg \
	    "$TOP/traces/micro/indep.pmr.zst" -o "$T/i.pmr"
	run -0 --separate-stderr "$PAIRS" -f json -b all -m execs \
	    --rebuild="$TOP/traces/micro/indep.pmr.zst" "$T/i.pmr"
	[ "$(printf '%s\n' "$output" | jq 'select(.rebuild) | .rebuild.scored')" -gt 1000 ]
	for m in intra inter; do
		for s in counts history pairs; do
			[ "$(rb $m $s success)" = 1 ]
		done
	done
}

# Spec X6: pairs >= history >= counts (grep, 300 k instructions).
@test "pairs --rebuild: scheme 3 >= scheme 2 >= scheme 1 on grep" {
	"$PMSIM" --profileme=paired,S=128 --max=300000 --seed=1 --no-pg \
	    "$TOP/traces/grep.pmr.zst" -o "$T/g.pmr"
	run -0 --separate-stderr "$PAIRS" -f json -b all -m execs \
	    --rebuild="$TOP/traces/grep.pmr.zst" "$T/g.pmr"
	for m in intra inter; do
		c=$(rb $m counts ok) h=$(rb $m history ok) p=$(rb $m pairs ok)
		echo "$m $c $h $p"
		[ "$p" -ge "$h" ]
		[ "$h" -gt "$c" ]
	done
	[ "$(printf '%s\n' "$output" | jq 'select(.rebuild) | .rebuild.badpc')" = 0 ]
}

# Local IPC on paired.tsv (W = 4, default delta 15).  Retire times are
# F + lat_total: pair 0 a (0xa0) 0 + 5, b (0xb0) 1 + 4: both 5, within
# delta, so G = 1 for each; pair 1's b aborted.  0xa0 has 2 retired
# members: local = 2 W G / k(ret) = 8 / 2 = 4, local_ipc = (4 + 1) / 31;
# 0xb0: 8 / 1 = 8, 9 / 31.  issued: b issues at 1 + 1 = 2, inside a's
# [0, 4); a at 2 inside b's [1, 3): 0xa0 4, 0xb0 8.  Neither retires
# strictly inside the other's flight (both at 5): ret_inflight 0.
@test "pairs: local IPC, issued and retired-in-flight on hand-built pairs" {
	mk paired
	run -0 "$PAIRS" -f tsv -m local,local_ipc,issued,ret_inflight "$T/paired.pmr"
	near "$(val 0xa0 local est)" 4
	near "$(val 0xa0 local_ipc est)" 0.16129032
	near "$(val 0xb0 local est)" 8
	near "$(val 0xb0 local_ipc est)" 0.29032258
	near "$(val 0xa0 issued est)" 4
	near "$(val 0xb0 issued est)" 8
	near "$(val 0xa0 ret_inflight est)" 0
	[ "$(val 0xa0 local k)" = 2 ]
	[[ $output == *"#local IPC window: +-15 cycles"* ]]
}

# With b's lat_total 7, it retires at 8, 3 cycles after a.
@test "pairs --delta sets the local IPC window" {
	mk paired 's/4294967295	4	0$/4294967295	7	0/'
	run -0 "$PAIRS" -f tsv --delta=2 -m local "$T/paired.pmr"
	near "$(val 0xa0 local est)" 0
	[[ $output == *"+-2 cycles"* ]]
	run -0 "$PAIRS" -f tsv --delta=3 -m local "$T/paired.pmr"
	near "$(val 0xa0 local est)" 4
	run -2 --separate-stderr "$PAIRS" --delta=0 "$T/paired.pmr"
	[[ $stderr == *"--delta: value '0' is too small"* ]]
}

# TRUTH.local (pmsim --truth, delta 15): the whole run within 5%, and
# per-pc intervals cover the exact value for most pcs.
@test "pairs: local IPC agrees with TRUTH local on grep" {
	"$PMSIM" -m alpha21264 --profileme=paired,S=128,rearm=select --truth \
	    --seed=1 --max=1000000 --no-pg "$TOP/traces/grep.pmr.zst" -o "$T/g.pmr"
	run -0 "$PAIRS" -t -f tsv -b all -m local,local_ipc "$T/g.pmr"
	echo "$output"
	[[ $output == *"(as TRUTH local)"* ]]
	awk -v r="$(val all local_ipc relerr)" 'BEGIN { exit !(r < 0.05 && r > -0.05) }'
	run -0 "$PAIRS" -t -f tsv -m local_ipc "$T/g.pmr"
	printf '%s\n' "$output" | grep '^#truth local_ipc'
	printf '%s\n' "$output" | awk '/^#truth local_ipc/ {
		for (i = 1; i <= NF; i++) if ($i == "covers") c = $(i + 2) + 0
		n = $3 } END { exit !(n >= 300 && c >= 80) }'
}

# Stage occupancy on paired.tsv.  Pair 0: a (0xa0) fm [0,1) md [1,2) dx
# [2,2) xr [2,4) rr [4,5); b (0xb0, an integer op) fm [1,2) md, dx empty,
# xr [2,3) rr [3,5).  Pair 1's b aborted: no stages, but its a counts in
# the denominators.  0xa0: xr cycles 4 in all, b executes 1 of them:
# occ_xr_xr = 2 W G / L_xr = 8 / 4 = 2, and fu_int_xr the same.  0xb0:
# a is in md during b's fm [1,2): occ_md_fm = 8 x 1 / 1 = 8; a executes
# during b's whole xr: occ_xr_xr = 8, fu_int_xr = 8; fu_mem_xr = 0.
@test "pairs: stage occupancy and unit use on hand-built pairs, with intervals" {
	mk paired
	run -0 "$PAIRS" -f tsv -m occ_xr_xr,occ_md_fm,occ_fm_fm,fu_int_xr,fu_mem_xr "$T/paired.pmr"
	near "$(val 0xa0 occ_xr_xr est)" 2
	near "$(val 0xa0 fu_int_xr est)" 2
	near "$(val 0xa0 occ_md_fm est)" 0
	near "$(val 0xb0 occ_md_fm est)" 8
	near "$(val 0xb0 occ_xr_xr est)" 8
	near "$(val 0xb0 fu_int_xr est)" 8
	near "$(val 0xb0 fu_mem_xr est)" 0
	# score intervals of a ratio, as useful_conc: 0xa0's members have
	# (g, l_xr) = (1, 2) and (0, 2), so L_xr^2 = 16 < z^2 sum l^2 = 30.7:
	# L_xr is not clear of 0 at 95%, and there is no interval; nor for
	# 0xb0's one member
	[ "$(val 0xa0 occ_xr_xr lo)" = - ]
	[ "$(val 0xa0 fu_int_xr hi)" = - ]
	[ "$(val 0xb0 occ_xr_xr lo)" = - ]
}

@test "pairs --occupancy: the sums travel in METRIC records" {
	mk paired
	"$PAIRS" -f pmr --occupancy -o "$T/m.pmr" "$T/paired.pmr"
	run -0 "$PAIRS" -f tsv -m occ_xr_xr "$T/m.pmr"
	near "$(val 0xb0 occ_xr_xr est)" 8
	"$PAIRS" -f pmr -o "$T/n.pmr" "$T/paired.pmr"
	run -0 "$PAIRS" -f tsv -m occ_xr_xr "$T/n.pmr"
	[ "$(val 0xb0 occ_xr_xr est)" = - ]
}

# Windowed IPC of STATS: 10-cycle windows retiring 0, 2, 4 and 6: sum 12,
# squares 56, cubes 288.  Weighted mean 56 / 12 = 4.67 (IPC 0.467), plain
# mean 12 / 4 = 3, max/min 6/2 (the empty window left out), weighted sd
# sqrt(288 / 12 - 4.667^2) = 1.491, 31.9% of the mean.
WIN_STATS='s/^STATS.*/STATS	1	500	800	1.6	1000	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	0	10	4	1	12	56	288	6	2/'

@test "pairs: windowed IPC statistics from STATS in the header" {
	mk single "$WIN_STATS"
	run -0 "$PAIRS" -b all "$T/single.pmr"
	[[ $output == *"# windowed IPC: 4 windows of 10 cycles (1 retired nothing), retire-weighted mean 4.67 per window (IPC 0.467; plain mean 3.00), max/min 6/2 = 3.0, weighted sd 31.9% of the mean"* ]]
	run -0 "$PAIRS" -b all -f json "$T/single.pmr"
	[ "$(printf '%s\n' "$output" | head -1 | jq -c '.header.windows | [.n, .zero, .max, .min, .ratio]')" = "[4,1,6,2,3]" ]
}

@test "pairs: windowed IPC of shards adds up, also through METRIC records" {
	mk single "$WIN_STATS"
	run -0 bash -c "cat '$T/single.pmr' '$T/single.pmr' | '$PAIRS' -b all"
	[[ $output == *"# windowed IPC: 8 windows of 10 cycles (2 retired nothing), retire-weighted mean 4.67 per window"* ]]
	"$PAIRS" -f pmr -o "$T/m.pmr" "$T/single.pmr"
	run -0 bash -c "cat '$T/m.pmr' '$T/m.pmr' | '$PAIRS' -b all"
	[[ $output == *"# windowed IPC: 8 windows of 10 cycles (2 retired nothing)"* ]]
}

# single.tsv with the four samples of 0x2000 moved to context 1: context
# 0 has the six samples of 0x1000 (s = 100: 600 executions, 400 retired),
# context 1 four (400, all retired).
CTX1='/0x2000	0x/s/^SAMPLE	0	10	0	4	\([0-9]*\)	0	/SAMPLE	0	10	0	4	\1	1	/'

@test "pairs --by=context: one row per SAMPLE context" {
	mk single "$CTX1"
	run -0 "$PAIRS" -b context -f tsv -m execs,retires -t "$T/single.pmr"
	near "$(val 0 execs est)" 600
	near "$(val 0 retires est)" 400
	near "$(val 1 execs est)" 400
	[ "$(val 1 retires k)" = 4 ]
	[ "$(val 0 execs exact)" = - ]
	run -0 "$PAIRS" -b context "$T/single.pmr"
	[[ $output == *"context  samples"* ]]
}

@test "pairs --by=context of pmsim: one thread, context 0 holds every sample" {
	"$PMSIM" --profileme=paired,S=200 --max=50000 --no-pg \
	    "$TOP/traces/grep.pmr.zst" -o "$T/g.pmr"
	run -0 --separate-stderr "$PAIRS" -b context -f tsv -m execs "$T/g.pmr"
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" = 1 ]
	all=$("$PAIRS" -q -b all -f tsv -m execs "$T/g.pmr" | awk -F '\t' '$1 == "all" { print $4 }')
	near "$(val 0 execs est)" "$all"
}

@test "pairs --by=context cannot write or read per-pc METRIC records" {
	mk single
	run -2 --separate-stderr "$PAIRS" -b context -f pmr "$T/single.pmr"
	[[ $stderr == *"--by=context cannot be combined with -f pmr"* ]]
	"$PAIRS" -f pmr -o "$T/m.pmr" "$T/single.pmr"
	run -1 --separate-stderr "$PAIRS" -b context "$T/m.pmr"
	assert_one_line_stderr
	[[ $stderr == *"no contexts"* ]]
}

@test "pairs --ci=bootstrap: same estimates, seeded percentile intervals" {
	"$PMSIM" --profileme=paired,S=128,rearm=select --truth --no-pg --seed=1 \
	    --max=200000 "$TOP/traces/grep.pmr.zst" -o "$T/g.pmr"
	m=wasted,wasted_frac,useful,useful_conc,local_ipc,issued
	"$PAIRS" -f tsv -m $m "$T/g.pmr" >"$T/delta.tsv"
	"$PAIRS" --ci=bootstrap --seed=3 -f tsv -m $m "$T/g.pmr" >"$T/b3.tsv"
	"$PAIRS" --ci=bootstrap --seed=3 -f tsv -m $m "$T/g.pmr" >"$T/b3b.tsv"
	"$PAIRS" --ci=bootstrap --seed=4 --boot=50 -f tsv -m $m "$T/g.pmr" >"$T/b4.tsv"
	run -0 cmp "$T/b3.tsv" "$T/b3b.tsv"
	run -1 cmp -s "$T/b3.tsv" "$T/b4.tsv"
	run -1 cmp -s "$T/b3.tsv" "$T/delta.tsv"
	run -0 diff <(cut -f 1-4 "$T/delta.tsv") <(cut -f 1-4 "$T/b3.tsv")
	# every interval holds its estimate, give or take the rounding
	run -0 awk -F '\t' '!/^#/ && $5 != "-" && ($4 < $5 - 1e-6 * ($5 < 0 ? -$5 : $5) - 1e-9 || $4 > $6 + 1e-6 * ($6 < 0 ? -$6 : $6) + 1e-9) { print; n++ } END { exit n > 20 }' "$T/b3.tsv"
}

@test "pairs --ci and --boot reject bad values" {
	mk paired
	run -2 --separate-stderr "$PAIRS" --ci=jackknife "$T/paired.pmr"
	[[ $stderr == *"unknown --ci method 'jackknife'"* ]]
	run -2 --separate-stderr "$PAIRS" --ci=bootstrap --boot=1 "$T/paired.pmr"
	[[ $stderr == *"--boot: value '1' is too small"* ]]
}

# METRIC records carry no replicates: their rows keep the delta method.
@test "pairs --ci=bootstrap on METRIC input falls back to the delta method" {
	mk paired
	"$PAIRS" -f pmr -o "$T/m.pmr" "$T/paired.pmr"
	run -0 diff <("$PAIRS" -f tsv -m all "$T/m.pmr") \
	    <("$PAIRS" --ci=bootstrap -f tsv -m all "$T/m.pmr")
}

# Spec A15: across seeds, the bootstrap intervals of the whole run cover
# TRUTH about as often as their level says (10 runs: at least 7).
@test "pairs --ci=bootstrap: coverage across seeds (examples/pairs-bootstrap.sh)" {
	pm_path
	run -0 env OUT="$T/out" SEEDS=10 sh "$TOP/examples/pairs-bootstrap.sh"
	echo "$output"
	[ "$(printf '%s\n' "$output" | grep -c bootstrap)" = 4 ]
	printf '%s\n' "$output" | awk '$2 == "bootstrap" && $4 < 7 { bad = 1 } END { exit bad }'
}

# Spec 7.5 item 1 for D-cache misses: single samples at S = 2 with
# Bernoulli selection on gzip (5 M instructions, about 2 s): of the pcs
# expecting at least 25 miss samples, about 68% fall inside 1 +- 1/sqrt(k)
# of TRUTH and 95% inside 1 +- 2/sqrt(k) (seed 1: 28 pcs, 67.9%, 100%).
@test "pairs: D-cache miss counts within the 1/sqrt(k) envelopes on gzip" {
	run -0 bash -o pipefail -c "'$PMSIM' --profileme=single,S=2,rearm=select --truth --seed=1 --no-pg '$TOP/traces/gzip.pmr.zst' | '$PAIRS' -t -f json -m dcache_miss --min-samples=25"
	line=$(printf '%s\n' "$output" | tail -1)
	echo "$line"
	printf '%s\n' "$line" | jq -e '.truth.rows >= 20 and .truth.in1 >= 0.5 and .truth.in1 <= 0.9 and .truth.in2 >= 0.9'
}

@test "pairs --by=proc: a file of another build than the IMAGE record's names nothing" {
	cc -nostdlib -static -no-pie -o "$T/chain" "$TOP/traces/micro/chain.S"
	mk proc "s|@CHAIN@\t$|$T/chain\t0123456789abcdef0123456789abcdef01234567|"
	run -0 --separate-stderr "$PAIRS" -f tsv -b proc -m execs "$T/proc.pmr"
	[[ $stderr == *"no symbols for '$T/chain' (another build than the traced one: build-ids differ)"* ]]
	[ -z "$(val '_start (chain)' execs est)" ]
	run -1 --separate-stderr "$PAIRS" --proc=_start "$T/proc.pmr"
}

@test "pairs --proc keeps the pcs of one procedure, found in the IMAGE symbols" {
	cc -nostdlib -static -no-pie -o "$T/chain" "$TOP/traces/micro/chain.S"
	mk proc "s|@CHAIN@|$T/chain|"
	# the two samples inside _start, not the one outside every image
	run -0 --separate-stderr "$PAIRS" -f tsv -b all -m execs --proc=_start \
	    "$T/proc.pmr"
	near "$(val all execs est)" 200
	run -0 --separate-stderr "$PAIRS" -f tsv -m execs --proc=_start "$T/proc.pmr"
	[ "$(grep -c '^0x' <<< "$output")" = 2 ]
	run -1 --separate-stderr "$PAIRS" --proc=nosuch "$T/proc.pmr"
	[ "$stderr" = "pairs: '$T/proc.pmr': no procedure 'nosuch' in the symbols of the IMAGE records' files" ]
	run -2 --separate-stderr "$PAIRS" --proc=_start -p 0-10 "$T/proc.pmr"
	[[ ${stderr_lines[0]} == *"--proc and --pc exclude each other"* ]]
}

# Issue 12: per-pc intervals that hold at the few samples a pc has.
# tests/coverage.sh runs pmsim --profileme=paired,S=64 --truth on 1 M
# instructions of every bundled trace with seeds 1, 2 and 3 and scores
# the 95% interval of every metric with a TRUTH value over the pcs with
# at least 10 (expected) samples; -c each requires per trace and pooled
# at least 93%, or, for fewer rows than make that robust (1069), no more
# misses than 3 binomial standard deviations above 5% (fewer than 20
# rows: not checked).  With rearm=select (Bernoulli selection, unbiased)
# every metric passes; about 15 s.
# Six seeds: with three, one cell (cc1 aborts, 29 rows) fell to 5 misses,
# just over the 3-sigma bound, after a simulator fix changed its samples;
# seeds 4-6 alone gave it 0 of 31: chance, which more rows absorb.
@test "pairs: intervals cover TRUTH on every bundled trace (rearm=select)" {
	run -0 "$TOP/tests/coverage.sh" -c each -r select -m 1000000 \
	    -s "1 2 3 4 5 6" "$TOP"/traces/*.pmr.zst
	printf '%s\n' "$output" | grep -E '^#|^all'
	[ "$(printf '%s\n' "$output" | grep -c 'ok$')" -gt 200 ]
}

# With pmsim's default, faithful re-arm the counts (and the totals) carry
# the bias of CAVEATS in pairs(1): they pass pooled, not on every trace
# and seed, so the per-trace check is of the other metrics; about 12 s.
@test "pairs: intervals of ratios, means and totals cover TRUTH with the default re-arm" {
	m=ret_rate,abort_rate,icache_rate,dcache_rate,dtlb_rate,taken_rate
	m=$m,misp_rate,lat_fm,lat_md,lat_dx,lat_xr,lat_rr,lat_ld,lat_total
	m=$m,cyc_fm,cyc_md,cyc_dx,cyc_xr,cyc_rr,cyc_ld,cyc_total,inprog,avail
	m=$m,wasted,wasted_frac,useful_rate,inflight,useful_conc,local,local_ipc
	run -0 "$TOP/tests/coverage.sh" -c each -M "$m" -m 1000000 \
	    -s "1 2 3" "$TOP"/traces/*.pmr.zst
	printf '%s\n' "$output" | grep -E '^#|^all'
	[ "$(printf '%s\n' "$output" | grep -c '^all.*ok$')" = 30 ]
}

# The check can fail: 80% intervals do not cover 93%.  (The latency
# means' do: they are conservative, about 95% at 80% and 99% at 95%.)
@test "pairs: the coverage check fails for intervals narrower than 95%" {
	run -1 "$TOP/tests/coverage.sh" -c all -p --confidence=0.8 \
	    -M execs,wasted_frac,useful_conc -m 1000000 -s "1 2" \
	    "$TOP/traces/grep.pmr.zst" "$TOP/traces/sqlite.pmr.zst"
	echo "$output"
	[ "$(printf '%s\n' "$output" | grep -c '^all.*FAIL$')" = 3 ]
}

# A finite sample leaves every value open to doubt: no interval is a
# point, whether the samples of a pc all show one latency or no useful
# partner (such pcs once got 1.0 +- 0).
@test "pairs: no interval from pmsim samples has width 0" {
	"$PMSIM" -m alpha21264 --profileme=paired,S=64 --truth --no-pg \
	    --seed=1 --max=300000 "$TOP/traces/grep.pmr.zst" -o "$T/g.pmr"
	run -0 --separate-stderr "$PAIRS" -t -f tsv -m all "$T/g.pmr"
	printf '%s\n' "$output" | awk -F '\t' '!/^#/ && $5 != "-" && $3 >= 10 && $6 <= $5 { print; n++ } END { exit n > 0 }'
	# and lat_xr, the same for every execution of a pc, is not exact
	printf '%s\n' "$output" | awk -F '\t' '$2 == "lat_xr" && $3 >= 10 && $5 != "-" { n++ } END { exit n < 10 }'
}

@test "pairs warns in one line when the effective S departs from S" {
	"$PMSIM" -m alpha21264 --profileme=paired,S=64 --no-pg --seed=1 \
	    --max=200000 "$TOP/traces/grep.pmr.zst" -o "$T/i.pmr"
	"$PMSIM" -m alpha21264 --profileme=paired,S=64,rearm=select --no-pg \
	    --seed=1 --max=200000 "$TOP/traces/grep.pmr.zst" -o "$T/s.pmr"
	run -0 --separate-stderr "$PAIRS" -n 1 "$T/i.pmr"
	assert_one_line_stderr
	[[ $stderr == "pairs: effective S "*" times the configured S=64 (rearm=interrupt"*"per-pc counts are biased" ]]
	run -0 --separate-stderr "$PAIRS" -q -n 1 "$T/i.pmr"
	[ -z "$stderr" ]
	run -0 --separate-stderr "$PAIRS" --nominal -n 1 "$T/i.pmr"
	[ -z "$stderr" ]
	run -0 --separate-stderr "$PAIRS" -n 1 "$T/s.pmr"
	[ -z "$stderr" ]
}

@test "pairs --boot is at most 1000 (B x 40 bytes per pc)" {
	mk paired
	run -2 --separate-stderr "$PAIRS" --ci=bootstrap --boot=1001 "$T/paired.pmr"
	[[ $stderr == *"--boot: value '1001' is too large"* ]]
	[[ $stderr == *"usage: pairs"* ]]
	run -0 --separate-stderr "$PAIRS" --ci=bootstrap --boot=1000 "$T/paired.pmr"
	run -0 --separate-stderr "$PAIRS" --ci=score -f tsv -m wasted "$T/paired.pmr"
	run -0 diff <("$PAIRS" --ci=score -f tsv -m all "$T/paired.pmr") \
	    <("$PAIRS" --ci=delta -f tsv -m all "$T/paired.pmr")
}

# audit (issue 12): fields read from a stream are checked before use

@test "pairs: a SAMPLE whose events set bit 31 is rejected, not a crash" {
	mk single '11s/\t16388\t/\t2147500036\t/'
	run -1 --separate-stderr "$PAIRS" "$T/single.pmr"
	assert_one_line_stderr
	[[ $stderr == "pairs: '$T/single.pmr': bad SAMPLE record: events 0x80004004 has bits not defined in pmr(5) (0x80000000)" ]]
}

@test "pairs: a PAIR member with unknown event bits, kind or hist_len is rejected" {
	local n
	n=$(grep -n '^PAIR' "$DATA/pairs/paired.tsv" | head -1 | cut -d: -f1)
	# a_events is the 8th field of the PAIR line
	mk paired "${n}s/^\\(PAIR\\(\\t[^\\t]*\\)\\{7\\}\\t\\)[0-9]*/\\14294967295/"
	run -1 --separate-stderr "$PAIRS" "$T/paired.pmr"
	[[ $stderr == *"bad PAIR record: events 0xffffffff has bits not defined"* ]]
	mk single '11s/^\(SAMPLE\t[^\t]*\t[^\t]*\t[^\t]*\t\)4/\165/'
	run -1 --separate-stderr "$PAIRS" "$T/single.pmr"
	[[ $stderr == *"bad SAMPLE record: hist_len 65 is above 64" ]]
}

@test "pairs --by=proc reads only regular files: a FIFO or a device is refused at once" {
	mkfifo "$T/fifo"
	mk proc "s|@CHAIN@|$T/fifo|"
	run -0 --separate-stderr timeout 20 "$PAIRS" -f tsv -b proc -m execs "$T/proc.pmr"
	[[ $stderr == "pairs: no symbols for '$T/fifo' (not a regular file): its pcs make one row" ]]
	mk proc "s|@CHAIN@|/dev/zero|"
	run -0 --separate-stderr timeout 20 "$PAIRS" -f tsv -b proc -m execs "$T/proc.pmr"
	[[ $stderr == *"'/dev/zero' (not a regular file)"* ]]
	# --proc looks the symbols up while reading: the same there
	mk proc "s|@CHAIN@|$T/fifo|"
	run -1 --separate-stderr timeout 20 "$PAIRS" -f tsv -m execs --proc=_start "$T/proc.pmr"
	[[ $stderr == *"no procedure '_start' in the symbols"* ]]
}

@test "pairs --sysroot finds a recorded path under another root" {
	mkdir -p "$T/root/opt/bin"
	cc -nostdlib -static -no-pie -o "$T/root/opt/bin/chain" "$TOP/traces/micro/chain.S"
	mk proc "s|@CHAIN@|/opt/bin/chain|"
	run -0 --separate-stderr "$PAIRS" -f tsv -b proc -m execs "$T/proc.pmr"
	[[ $stderr == *"no symbols for '/opt/bin/chain' (No such file or directory)"* ]]
	run -0 --separate-stderr "$PAIRS" -f tsv -b proc -m execs --sysroot="$T/root" "$T/proc.pmr"
	[ -z "$stderr" ]
	near "$(val '_start (chain)' execs est)" 200
}

@test "pairs --by=proc on an ELF without any symbol makes one row" {
	cc -nostdlib -static -no-pie -o "$T/chain" "$TOP/traces/micro/chain.S"
	strip --strip-all "$T/chain"
	mk proc "s|@CHAIN@|$T/chain|"
	run -0 --separate-stderr "$PAIRS" -f tsv -b proc -m execs "$T/proc.pmr"
	near "$(val "$T/chain" execs est)" 200
}

@test "pairs --cache: every part strictly in range, or a usage error" {
	local c
	mk single
	for c in -9223372036854775808,2,64 9223372036854775808,2,64 65536,2,64, \
	    65536,2 65536,0,64 65536,2,48 '' 65536,2,64x 0,2,64 65536,2,-64; do
		run -2 --separate-stderr "$PAIRS" -b set --cache="$c" "$T/single.pmr"
		[[ $stderr == "pairs: --cache '$c': give SIZE,WAYS,LINE"* ]] ||
			{ echo "$c: $stderr"; return 1; }
	done
	run -0 --separate-stderr "$PAIRS" -b set --cache=1099511627776,1,1 "$T/single.pmr"
}

@test "pairs: output errors name the output and give the system's reason" {
	mk paired
	run -1 --separate-stderr "$PAIRS" -q -f pmr -o /nonexistent/dir/x "$T/paired.pmr"
	[ "$stderr" = "pairs: cannot create '/nonexistent/dir/x': No such file or directory" ]
	run -1 --separate-stderr "$PAIRS" -q -f pmr -o /dev/full "$T/paired.pmr"
	[ "$stderr" = "pairs: '/dev/full': write error: No space left on device" ]
	run -1 --separate-stderr bash -c '"$0" -q -f pmr "$1" >/dev/full' "$PAIRS" "$T/paired.pmr"
	[ "$stderr" = "pairs: stdout: write error: No space left on device" ]
	run -1 --separate-stderr "$PAIRS" -q -t -m all -o /dev/full "$T/paired.pmr"
	[ "$stderr" = "pairs: cannot write '/dev/full': No space left on device" ]
	run -1 --separate-stderr "$PAIRS" -q -o /nonexistent/x "$T/paired.pmr"
	[ "$stderr" = "pairs: cannot create '/nonexistent/x': No such file or directory" ]
}

@test "pairs -f pmr -o into a missing folder names the cause" {
	mk paired
	run --separate-stderr -1 "$PAIRS" -f pmr -o /nonexistent/dir/x "$T/paired.pmr"
	[ "$stderr" = "pairs: cannot create '/nonexistent/dir/x': No such file or directory" ]
	run --separate-stderr -1 "$PAIRS" /nonexistent/in.pmr
	[ "$stderr" = "pairs: cannot open '/nonexistent/in.pmr': No such file or directory" ]
}

# --hist by procedure or image named its rows with an unset buffer (raw
# bytes) before: every key is an image path or "unknown".
@test "pairs --hist by image names each row by its image" {
	local t=$BATS_TEST_TMPDIR im=/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6
	"$PMSIM" --no-pg --max=20000 --profileme=single,S=64 \
	    "$TOP/traces/sqlite.pmr.zst" > "$t/s.pmr"
	"$PAIRS" -q --hist=total -b image -f tsv "$t/s.pmr" |
	    grep -v '^#' | cut -f1 | sort -u > "$t/tsv"
	"$PAIRS" -q --hist=total -b image -f json "$t/s.pmr" |
	    jq -r 'select(.key) | .key' | sort -u > "$t/json"
	"$PAIRS" -q --hist=total -b image "$t/s.pmr" | grep -v '^#' |
	    awk 'NR > 1 { print $1 }' | sort -u > "$t/text"
	printf '%s\nunknown\n' "$im" > "$t/want"
	diff "$t/want" "$t/tsv"
	diff "$t/want" "$t/json"
	diff "$t/want" "$t/text"
}

@test "pairs on pmsim windows cat-merged (--skip): per-pc execs and retires inside their 95% intervals as often as claimed" {
	# gzip's first 2 M instructions as 4 windows of 500 K, each warmed on
	# what it skips; the concatenation reads as one run
	local i m=500000
	for i in 0 1 2 3; do
		"$PMSIM" -q --no-pg --skip=$((i * m)) --max=$m \
		    --profileme=paired,S=64,rearm=select --truth \
		    -o "$T/w$i.pmr" "$TOP/traces/gzip.pmr.zst"
	done
	cat "$T/w0.pmr" "$T/w1.pmr" "$T/w2.pmr" "$T/w3.pmr" > "$T/all.pmr"
	run -0 --separate-stderr "$PAIRS" -t "$T/all.pmr"
	# ~300 pcs each: 90% is four binomial deviations below 95%
	awk '/^# truth (execs|retires):/ { n++; match($0, /covers exact [0-9.]+%/)
		c = substr($0, RSTART + 13, RLENGTH - 14) + 0; print $3, c
		if (c < 90) bad = 1 } END { exit bad || n != 2 }' <<<"$stderr$output"
}
