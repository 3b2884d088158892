#!/usr/bin/env bats
# shotgun: graph fragments from shotgun-profiling samples.  The oracle with
# every instruction sampled is the full graph cut into the same fragments,
# exactly; the pc inference is scored against the trace; the sampled
# breakdown is near the full graph's; determinism; bad input.

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
}

# The value of key $1 in the shotgun-stats META of stream $2.
stat() {
	"$PMVIEW" -f tsv -t META "$2" | awk -F '\t' '$2 == "shotgun-stats" { print $3 }' |
	    tr ' ' '\n' | awk -F = -v k="$1" '$1 == k { print $2 }'
}

# The summary line of icost --compare -f tsv of $1 and $2: "rel max".
summary() {
	"$ICOST" --compare -f tsv "$1" "$2" | awk -F '\t' '
	    $1 == "#summary" { for (i = 2; i <= NF; i++) h[$i] = i }
	    $1 == "summary" { print $h["err1_rel"], $h["err1_max"] }'
}

@test "shotgun --help, usage errors" {
	run -0 "$SHOTGUN" --help
	for o in --program --fragments --every --sig-len --ctx --bits --stats --sysroot \
	    --lookahead --keep --strata --resync --pieces --warm --wp --calibrate --oracle --coverage --format --seed; do
		[[ $output == *"$o"* ]] || { echo "no $o"; return 1; }
	done
	run -2 "$SHOTGUN" -p x --bits 3
	run -2 "$SHOTGUN" -p x --ctx 16
	run -2 "$SHOTGUN" -p x --keep 101
	run -2 "$SHOTGUN" -p x --resync 101
	[[ ${lines[0]} == *"--resync: value '101' is too large (0..100)" ]]
	run -2 "$SHOTGUN" -p x --pieces -1
	[[ ${lines[0]} == *"--pieces: value '-1'"* ]]
	run -2 "$SHOTGUN" -p x --warm -1
	run -2 "$SHOTGUN" -p x --calibrate 1001
	[[ ${lines[0]} == *"--calibrate"* ]]
	run -2 "$SHOTGUN" -p x --wp none
	[[ ${lines[0]} == *"--wp: value 'none' is unknown (sample, rate)"* ]]
	run -2 "$SHOTGUN" -p x -f tsv
	run -2 "$SHOTGUN" -p x --bogus
}

# Spec test 7: every instruction sampled (det=1, ctx=0), back-to-back
# signatures (sig=1, prefix=0), the oracle: the fragments are the full
# graph cut at the signatures' starts, so every cost is the same in
# cycles as icost --cut gives it, on each preset.  Laid end to end
# (icost --chain), with the producers that reach before each fragment
# (its samples' own distances), they are the whole graph again, to the
# cycle; analysed alone, as the paper's, they are not.
@test "shotgun --oracle --every with every instruction sampled is the full graph cut into the same fragments, exactly" {
	for m in fields03 alpha21264 champsim; do
		for tr in gzip sqlite; do
			"$PMSIM" -q -m $m --graph --shotgun=sig=1,det=1,ctx=0,len=2000,prefix=0 \
			    --max 60000 -o "$T/o.pmr" "$TOP/traces/$tr.pmr.zst"
			"$SHOTGUN" --oracle --every -p "$TOP/traces/$tr.pmr.zst" -o "$T/f.pmr" "$T/o.pmr"
			[ "$(stat kept "$T/f.pmr")" = 30 ]
			"$ICOST" -q --cut 2000 -f pmr -o "$T/cut.cost" "$T/o.pmr"
			"$ICOST" -q -f pmr -o "$T/sg.cost" "$T/f.pmr"
			diff <("$PMVIEW" -f tsv -t COST "$T/cut.cost" | cut -f3,5-8) \
			    <("$PMVIEW" -f tsv -t COST "$T/sg.cost" | cut -f3,5-8)
			# the COST source says where the breakdown came from
			[ "$("$PMVIEW" -f tsv -t COST "$T/sg.cost" | awk -F '\t' 'NR == 2 { print $2 }')" = 2 ]
			# chained, the whole graph (but the count of fragments)
			"$ICOST" -q -f pmr -o "$T/whole.cost" "$T/o.pmr"
			"$ICOST" -q --chain -f pmr -o "$T/chain.cost" "$T/f.pmr"
			diff <("$PMVIEW" -f tsv -t COST "$T/whole.cost" | cut -f3,5-7) \
			    <("$PMVIEW" -f tsv -t COST "$T/chain.cost" | cut -f3,5-7)
			run -1 cmp -s <("$PMVIEW" -f tsv -t COST "$T/whole.cost" | cut -f3,5-7) \
			    <("$PMVIEW" -f tsv -t COST "$T/sg.cost" | cut -f3,5-7)
		done
	done
}

# Spec test 8: the pc inference against the trace.  Every fragment the
# checks let through stays on the true path here; of those that leave it,
# the checks catch nearly all (the paper: 95-100%).
# The paper's checks catch 95-100% of the fragments that leave the true
# path: a rate, asserted where there are enough of them (cc1, dozens); on
# the others what counts is that 98% of the kept ones stay on it, and that
# those that do not leave it only for a few nodes (an indirect target
# whose code matches the signature bits, then rejoins: no check on the
# bits can see it), under 0.1% of the nodes.  cc1's
# short run leaves a quarter of its nodes without a sample of their pc
# (its code runs once), the others under 2%.
@test "shotgun: inferred paths against the trace (consistent, detected errant, missing pcs)" {
	for tr in python sort xz cc1; do
		"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=4000,det=20 --warmup 100000 \
		    --max 500000 -o "$T/s.pmr" "$TOP/traces/$tr.pmr.zst"
		"$SHOTGUN" -n 200 -p "$TOP/traces/$tr.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
		kept=$(stat kept "$T/f.pmr") cons=$(stat consistent "$T/f.pmr")
		err=$(stat errant "$T/f.pmr") det=$(stat detected "$T/f.pmr")
		nodes=$(stat nodes "$T/f.pmr") miss=$(stat missing "$T/f.pmr")
		off=$(stat off_nodes "$T/f.pmr")
		echo "$tr: kept $kept consistent $cons errant $err detected $det missing $miss/$nodes off the true path $off"
		# -n is whole fragments' worth of nodes past --warm (and the
		# calibration may add half as many again): tails from an
		# anchor count for less (kept read 200, behind an && that
		# could not fail, until 2026-11-29)
		w=$(stat worth "$T/f.pmr")
		[ "$w" -ge 200 ]
		[ "$w" -le 300 ]
		[ "$kept" -ge 200 ]
		rk=$(stat resync_kept "$T/f.pmr") pc=$(stat pieces "$T/f.pmr")
		# whole, from an anchor, or pieces from a signature's start
		wr=$(($(stat kept_whole "$T/f.pmr") + ${rk:-0}))
		[ "$kept" -ge "$wr" ]
		[ "$kept" -le $((wr + ${pc:-0})) ]
		[ $((cons * 100)) -ge $((kept * 98)) ]
		# the kept errant ones leave the true path for a few nodes
		[ -n "$off" ]
		[ $((off * 1000)) -le "$nodes" ]
		if [ "$tr" = cc1 ]; then
			[ "$err" -ge 20 ]
			[ $((det * 100)) -ge $((err * 95)) ]
		else
			[ $((miss * 100)) -le $((nodes * 2)) ]
		fi
	done
}

# Drawn at random, the fragments are the windows that assemble: on cc1
# those through well-sampled code, with 21 misses (b2 bits) a 1000
# instructions against the signatures' 36, and shotgun warns; drawn by
# strata of their misses (the default) they have about as many.  A
# stratum whose windows never assemble gives its share to its neighbour,
# and says so.
@test "shotgun --strata: the fragments have more of the signatures' I-side misses (cc1); a stratum that makes none is said" {
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=4000,det=20 --warmup 500000 \
	    --max 2000000 -o "$T/s.pmr" "$TOP/traces/cc1.pmr.zst"
	p=$TOP/traces/cc1.pmr.zst
	# (without the calibration, which draws more from the windows rich
	# in I-side misses)
	run -0 --separate-stderr "$SHOTGUN" -n 150 --strata 0 --resync 0 --pieces 0 --calibrate 0 -p "$p" -o "$T/u.pmr" "$T/s.pmr"
	[[ $stderr == *"windows with misses are under-represented"*"(--strata draws by misses)"* ]]
	# drawn uniformly, the windows that assemble have a quarter fewer
	# D-side misses than the DETs (15.3 a 1000 against 20.3): said
	[[ $stderr == *"shotgun: warning: the fragments have "*" D-side misses (the DETs "*"): the windows that assemble are not the run's mix, and the costs of D-side misses are off by it"* ]]
	all=$(stat b2_all "$T/u.pmr") ukept=$(stat b2_kept "$T/u.pmr")
	iall=$(stat i_all "$T/u.pmr") iukept=$(stat i_kept "$T/u.pmr")
	echo "uniform: b2 $ukept of $all a 1000 instructions, (0,1) bits $iukept of $iall"
	awk -v a="$all" -v k="$ukept" -v ia="$iall" -v ik="$iukept" \
	    'BEGIN { exit !(a > 30 && k < 0.7 * a && ia > 5 && ik < 0.5 * ia) }'
	[ -z "$(stat strata "$T/u.pmr")" ]
	run -0 --separate-stderr "$SHOTGUN" -n 150 --resync 0 --pieces 0 -p "$p" -o "$T/s8.pmr" "$T/s.pmr"
	# and cc1's short run leaves many nodes without a sample: said
	[[ $stderr == *"of the nodes have no sample of their pc and borrow another's latencies"* ]]
	kept=$(stat b2_kept "$T/s8.pmr") ikept=$(stat i_kept "$T/s8.pmr")
	echo "strata: b2 $kept of $all, (0,1) bits $ikept of $iall"
	# the strata's key, b2 without b1 (I-side misses), nearly as in the
	# signatures; b2 as a whole better than uniform, still short (the
	# coldest windows never assemble: two strata given up, said)
	awk -v a="$all" -v k="$kept" -v uk="$ukept" -v ia="$iall" -v ik="$ikept" \
	    'BEGIN { exit !(ik >= 0.7 * ia && ik <= 1.1 * ia && k > 1.2 * uk && k < a) }'
	[ "$(stat strata "$T/s8.pmr")" = 8 ]
	[ "$(stat strata_out "$T/s8.pmr")" -gt 0 ]
	[[ $stderr == *"of the 8 strata made no fragment"* ]]
	[ -z "$(stat resyncs "$T/s8.pmr")" ]
	# walks that start again at an anchor (--resync, the default): the
	# coldest windows give their tails, every stratum its share, and the
	# fragments nearly the signatures' I-side misses; the anchors on the
	# true pc (92%), and the fragments kept on the true path (149 of 150)
	run -0 --separate-stderr "$SHOTGUN" -n 150 --pieces 0 -p "$p" -o "$T/r.pmr" "$T/s.pmr"
	rkept=$(stat resync_kept "$T/r.pmr") irkept=$(stat i_kept "$T/r.pmr")
	rtrue=$(stat resync_true "$T/r.pmr")
	echo "resync: $rkept fragments from an anchor, anchors true $rtrue, (0,1) bits $irkept of $iall"
	[ "$rkept" -gt 0 ]
	# fewer strata given up than without (2 here); none in 3 of 5
	# shotgun seeds (0-4), before 2026-12-02 seed 0 too, one in the rest
	[ "$(stat strata_out "$T/r.pmr")" -lt "$(stat strata_out "$T/s8.pmr")" ]
	rall=$(stat kept "$T/r.pmr")
	# -n counts nodes past icost's warm-up: tails count for less, so
	# more fragments than 150
	[ "$rall" -gt 150 ]
	[ "$(stat kept_whole "$T/r.pmr")" = $((rall - rkept)) ]
	[ "$(stat pieces "$T/r.pmr")" = 0 ]
	# what a walk built before it stopped, kept as pieces (--pieces, the
	# default): more of the windows make fragments, each piece's rest
	# going on from an anchor; kept = whole + from an anchor + the
	# pieces from a signature's start
	run -0 --separate-stderr "$SHOTGUN" -n 150 -p "$p" -o "$T/pc.pmr" "$T/s.pmr"
	pk=$(stat kept "$T/pc.pmr") pw=$(stat kept_whole "$T/pc.pmr")
	pr=$(stat resync_kept "$T/pc.pmr") pp=$(stat pieces "$T/pc.pmr")
	echo "pieces: $pk kept, $pw whole, $pr from an anchor, $pp pieces; signatures $(stat sigs_kept "$T/r.pmr") -> $(stat sigs_kept "$T/pc.pmr")"
	[ "$pp" -gt 0 ]
	[ "$((pw + pr))" -lt "$pk" ]
	[ "$pk" -le $((pw + pr + pp)) ]
	[ "$(stat truncated "$T/pc.pmr")" = 0 ]
	[ "$(stat sigs_kept "$T/pc.pmr")" -gt "$(stat sigs_kept "$T/r.pmr")" ]
	# nearly all of them on the true path still
	[ "$(stat consistent "$T/pc.pmr")" -ge $((pk * 9 / 10)) ]
	# icost counting from another warm-up weighs the tails otherwise:
	# said, once; not with the same, nor on whole fragments alone
	run -0 --separate-stderr "$ICOST" -c dl1 "$T/r.pmr" "$T/r.pmr"
	[ "$(grep -c 'shotgun drew its fragments' <<<"$stderr")" = 1 ]
	[[ $stderr == *"counting the nodes past --warm 1280 (shotgun --warm), icost counts from --warm 0: the $rkept short ones (tails, cut)"* ]]
	run -0 --separate-stderr "$ICOST" --warm 1280 -c dl1 "$T/r.pmr"
	[[ $stderr != *"shotgun drew"* ]]
	run -0 --separate-stderr "$ICOST" -c dl1 "$T/s8.pmr"
	[[ $stderr != *"shotgun drew"* ]]
	# the wrong path's prefetch cycles with --wp rate: at the DETs' rate
	# a node, and only on nodes at a line start whose line did not miss;
	# as the samples have them (--wp sample, the default), off line
	# starts and on misses too
	"$SHOTGUN" -q -n 150 --wp rate -p "$p" -o "$T/wr.pmr" "$T/s.pmr"
	for f in wr r; do
		"$PMVIEW" -f tsv -t GNODE "$T/$f.pmr" | awk -F '\t' '
		    function hex(s,  i, v) { v = 0; s = tolower(substr(s, 3))
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		    $1 == "GNODE" { line = int(hex($3) / 64)
			lf = $2 != ps + 1 || line != pl
			if ($29 > 0) { nz++; bad += !lf || $7 > 0 || $24 > 0 }
			ps = $2; pl = line }
		    END { print nz + 0, bad + 0 }' > "$T/$f.wp"
		echo "$f: wp_kept $(stat wp_kept "$T/$f.pmr") of $(stat nodes "$T/$f.pmr") nodes, wp_dets $(stat wp_dets "$T/$f.pmr") of $(stat dets "$T/$f.pmr"); nonzero, misplaced: $(cat "$T/$f.wp")"
	done
	read -r nz bad < "$T/wr.wp" && [ "$nz" -gt 1000 ] && [ "$bad" = 0 ]
	read -r nz bad < "$T/r.wp" && [ "$bad" -gt $((nz / 5)) ]
	[ "$(stat wp_dets "$T/r.pmr")" = "$(stat wp_dets "$T/wr.pmr")" ]
	awk -v k="$(stat wp_kept "$T/wr.pmr")" -v n="$(stat nodes "$T/wr.pmr")" \
	    -v d="$(stat wp_dets "$T/wr.pmr")" -v m="$(stat dets "$T/wr.pmr")" \
	    'BEGIN { r = (k / n) / (d / m); exit !(r > 0.9 && r < 1.1) }'
	[ $(($(stat consistent "$T/r.pmr") * 100)) -ge $((rall * 98)) ]
	[[ $stderr != *"strata made no fragment"* ]]
	awk -v ia="$iall" -v ik="$ikept" -v ir="$irkept" -v t="$rtrue" \
	    'BEGIN { split(t, a, "/"); exit !(ir > ik && ir >= 0.8 * ia && ir <= 1.1 * ia && a[1] >= 0.9 * a[2]) }'
	# each node misses as its own b2 bit says: where no sample of its pc
	# agrees, the miss comes from its class, or goes (with the samples'
	# fields whole, 27 nodes a 1000 missed against 31 bits)
	ev=$("$PMVIEW" -f tsv -t GNODE "$T/s8.pmr" | awk -F '\t' '
	    NR > 1 { n++; m += $6 % 32 != 0 } END { print 1000 * m / n }')
	echo "nodes with a miss: $ev a 1000; grafted: $(stat grafted_miss "$T/s8.pmr") missed, $(stat grafted_hit "$T/s8.pmr") hit"
	awk -v e="$ev" -v k="$kept" 'BEGIN { exit !(e >= 0.98 * k && e <= 1.02 * k) }'
	[ "$(stat grafted_miss "$T/s8.pmr")" -gt 0 ]
	[ "$(stat grafted_hit "$T/s8.pmr")" -gt 0 ]
	# python's first 500 K: most windows of the interpreter's dispatch
	# never assemble
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=4000,det=20 --warmup 100000 \
	    --max 500000 -o "$T/p.pmr" "$TOP/traces/python.pmr.zst"
	run -0 --separate-stderr "$SHOTGUN" -n 100 --resync 0 --pieces 0 -p "$TOP/traces/python.pmr.zst" \
	    -o "$T/p8.pmr" "$T/p.pmr"
	out=$(stat strata_out "$T/p8.pmr") moved=$(stat strata_moved "$T/p8.pmr")
	pk=$(stat kept "$T/p8.pmr")
	[ "$out" -gt 0 ]
	[ "$moved" -gt 0 ]
	[ "$pk" -ge 100 ]
	# none whole: the second pass keeps them up to their last choice, said
	[ "$(stat kept_whole "$T/p8.pmr")" = 0 ]
	[ "$(stat truncated "$T/p8.pmr")" = "$pk" ]
	[[ $stderr == *"0 whole fragments and 0 from an anchor could be built; $pk more are kept up to their last choice"* ]]
	[[ $stderr == *"$out of the 8 strata made no fragment: $moved fragments drawn from the strata nearest in misses instead"* ]]
	# from anchors (--resync, the default; without pieces): every
	# fragment a tail, none cut
	run -0 --separate-stderr "$SHOTGUN" -n 100 --pieces 0 -p "$TOP/traces/python.pmr.zst" \
	    -o "$T/pr.pmr" "$T/p.pmr"
	pk=$(stat kept "$T/pr.pmr")
	[ "$pk" -ge 100 ]
	[ "$(stat kept_whole "$T/pr.pmr")" = 0 ]
	[ "$(stat resync_kept "$T/pr.pmr")" = "$pk" ]
	[ "$(stat truncated "$T/pr.pmr")" = 0 ]
	[ "$(stat consistent "$T/pr.pmr")" = "$pk" ]
	[ "$(stat strata_out "$T/pr.pmr")" = 0 ]
	# whole fragments only (--keep 0): none here, said with the way out
	run -1 --separate-stderr "$SHOTGUN" -n 100 --keep 0 --resync 0 --pieces 0 \
	    -p "$TOP/traces/python.pmr.zst" -o "$T/p0.pmr" "$T/p.pmr"
	[[ $stderr == *"no fragment could be built whole (--keep=50 keeps"* ]]
	[ ! -e "$T/p0.pmr" ]
	# only tails of 90% or more: one signature has one, and 50 tries a
	# fragment make too few; said, in fragments and whole ones' worth
	run -0 --separate-stderr "$SHOTGUN" -n 100 --keep 0 --strata 0 --resync 90 --pieces 0 \
	    -p "$TOP/traces/python.pmr.zst" -o "$T/p9.pmr" "$T/p.pmr"
	pk=$(stat kept "$T/p9.pmr") pw=$(stat worth "$T/p9.pmr")
	# (6000 tries, then the calibration's three times as many and 1000,
	# which find no fragment richer in I-side misses)
	[ "$(stat tried "$T/p9.pmr")" = 25000 ]
	[ -z "$(stat calib_extra "$T/p9.pmr")" ]
	[ "$pw" -lt "$pk" ]
	[ "$pk" -lt 100 ]
	[[ $stderr == *"warning: $pk good fragments, $pw whole ones' worth of the 100 asked for, after 25000 tries"* ]]
	# --every ignores them; a bad count is a usage error
	"$SHOTGUN" --every --sig-len 200 -p "$TOP/traces/python.pmr.zst" -o "$T/e.pmr" "$T/p.pmr" 2>/dev/null
	[ -z "$(stat strata "$T/e.pmr")" ]
	run -2 "$SHOTGUN" --strata 65 -p "$p" "$T/s.pmr"
	[[ ${lines[0]} == *"--strata: value '65' is too large (0..64)" ]]
}

# cc1's 2 M instructions leave 15% of the nodes without a sample of their
# pc: code that ran rarely, whose proxies come from the pcs sampled once
# (not from the hot code most samples are of); each node misses as its
# own b2 bit says, and an I-side miss only where the node starts a line
# on the path.  With the true path (--oracle), what is left is the
# samples: 33% and 6.8 points with the samples' fields whole and any
# proxy of the class (the paper's choice), 25% and 7.1 with the grafts
# alone, 14% and 3.2 with all of them.  On the assembled path, 45%, 34%
# and 26%: the windows through cold code abort and their misses are lost
# (README); 13% and 3.4 with whole fragments drawn by strata of I-side
# misses; 19.8% and 4.6 with the tails of the windows that abort, from an
# anchor (--resync; over pmsim seeds 0-2 of 1000 fragments 24.8% against
# 27.6%, the spread between seeds 23-27% against 17-39%); 15.2% and 4.4
# with -n counting nodes past --warm, 10.1% and 3.2 with the wrong path's
# prefetch cycles at the DETs' rate (--wp rate; over seeds 0-2 of 1000
# fragments 21.5% against 24.5%, but worse on a long trace's cold window,
# so not the default).  Since a sampled return's empty stack may go to its
# callers' return sites, 18.8% here: this run (pmsim seed 0) was the low
# end of seeds 0-5 at 150 fragments (12.6-28.2%, mean 22.4%, scheduled
# issue), which the change took to a mean of 20.5% (12.2-26.6%), five
# seeds of six closer; the bound is 22 (--wp rate: 14.2%, bound 17).
# Since the stand-ins (proxies and grafts) are drawn among the class's
# samples with the node's own bits rather than matched by context: the
# true path 8.8% and 2.7 points (15.6% and 3.5 before; bound 12 and 3.2),
# assembled 18.5% and 3.6, --wp rate 14.0%.
# Since the calibration draws from the signatures above their mean in
# (0, 1) bits (seeds 3 and 4 were never calibrated) with three times the
# draws: over pmsim seeds 0-5 at 150 fragments 14.2% against 18.1%
# (23.1, 16.6, 13.6, 12.8, 7.1, 12.0 against 18.5, 18.7, 16.4, 18.6, 11.8,
# 24.4), but this run, seed 0, from 18.5% to 23.1%: bound 24; --wp rate
# 18.2% against 18.6% over the seeds, this run 19.3% against 14.0%:
# bound 20.  With the pieces of the walks that stop (--pieces, since
# 2026-12-02): assembled 21.1% and 4.0 points, --wp rate 18.5% and 4.01:
# its largest error's bound 4.5; with the partial misses' fix, 17.6% and
# 3.65, --wp rate 18.9% and 3.67.
# The line rule never trips on the true path.
@test "shotgun on cc1: rare pcs' proxies from the pcs sampled once, misses by their own bits and lines (the oracle within 10.5% of the full graph)" {
	"$PMSIM" -q -m fields03 --graph --shotgun=sig=2000,len=4000,det=20 --warmup 500000 \
	    --max 2000000 -o "$T/s.pmr.zst" "$TOP/traces/cc1.pmr.zst"
	"$ICOST" -q -f pmr -o "$T/g.cost" "$T/s.pmr.zst"
	# the true path over three shotgun seeds (150 fragments are a small
	# draw: seed 0 alone 12.6%, seeds 1-6 5.7-9.1%; before the partial
	# misses' fix 8.8% and 10.4-16.2%, the three 11.8%)
	sum=0 llc=""
	llc_of() {	# last-level misses and nodes of GNODE stream $1
		"$PMVIEW" -f tsv -t GNODE "$1" | awk -F '\t' '
		    NR > 1 { n++; l += int($6 / 16) % 2 } END { print l, n }'
	}
	for sd in 0 1 2; do
		"$SHOTGUN" -q --oracle -n 150 --seed $sd -p "$TOP/traces/cc1.pmr.zst" -o "$T/o.pmr" "$T/s.pmr.zst"
		[ "$(stat miss_mid_line "$T/o.pmr")" = 0 ]
		llc="$llc $(llc_of "$T/o.pmr")"
		"$ICOST" -q --warm 1280 -f pmr -o "$T/o.cost" "$T/o.pmr"
		read -r rel max <<<"$(summary "$T/g.cost" "$T/o.cost")"
		echo "cc1, the true path, shotgun seed $sd: mean relative error $rel%, largest $max points"
		awk -v m="$max" 'BEGIN { exit !(m <= 3.2) }'
		sum=$(awk -v s="$sum" -v r="$rel" 'BEGIN { print s + r }')
	done
	awk -v s="$sum" 'BEGIN { print "mean", s / 3; exit !(s / 3 <= 10.5) }'
	# a load's b1 says whether its miss went to memory (a last-level
	# miss resets it): the nodes whose sample missed at the other level
	# take a class sample's of theirs, and the fragments have the
	# graph's last-level misses (1.06 a 1000 nodes against its 1.02;
	# 0.91 before, the samples' levels as they were)
	awk -v f="$llc" -v g="$(llc_of "$T/s.pmr.zst")" 'BEGIN {
	    n = split(f, a, " "); for (i = 1; i <= n; i += 2) { l += a[i]; m += a[i + 1] }
	    split(g, b, " "); r = (l / m) / (b[1] / b[2])
	    print "last-level misses a 1000 nodes:", 1000 * l / m, "the graph", 1000 * b[1] / b[2]
	    exit !(r > 0.92 && r < 1.08) }'
	"$SHOTGUN" -q -n 150 -p "$TOP/traces/cc1.pmr.zst" -o "$T/f.pmr" "$T/s.pmr.zst"
	"$ICOST" -q --warm 1280 -f pmr -o "$T/f.cost" "$T/f.pmr"
	read -r rel max <<<"$(summary "$T/g.cost" "$T/f.cost")"
	echo "cc1, assembled: mean relative error $rel%, largest $max points"
	awk -v r="$rel" -v m="$max" 'BEGIN { exit !(r <= 24 && m <= 5) }'
	# the wrong path's prefetch cycles at the DETs' rate: closer here
	"$SHOTGUN" -q -n 150 --wp rate -p "$TOP/traces/cc1.pmr.zst" "$T/s.pmr.zst" |
	    "$ICOST" -q --warm 1280 -f pmr -o "$T/fr.cost"
	read -r rel max <<<"$(summary "$T/g.cost" "$T/fr.cost")"
	echo "cc1, assembled, --wp rate: mean relative error $rel%, largest $max points"
	awk -v r="$rel" -v m="$max" 'BEGIN { exit !(r <= 20 && m <= 4.5) }'
	[ "$(stat grafted_miss "$T/f.pmr")" -gt 0 ]
	[ "$(stat grafted_hit "$T/f.pmr")" -gt 0 ]
	[ "$(stat grafted_level "$T/f.pmr")" -gt 0 ]
	[ "$(stat grafted_dir "$T/f.pmr")" -gt 0 ]
	# partial misses whose edge did not fit: made to wait for the latest
	# miss, or given a miss's cycles; and hardly an L1-D miss left
	# without cycles of its own or a PP edge to a miss (one before the
	# fragment is the sample's own distance): 2 of 18,565 here, the
	# samples' own (the machine has 12 in 1.5 M instructions), where
	# the fill without the fix had 18% of them
	[ "$(stat merged "$T/f.pmr")" -gt 0 ]
	[ "$(stat unmerged "$T/f.pmr")" -gt 0 ]
	"$PMVIEW" -f tsv -t GNODE "$T/f.pmr" | awk -F '\t' '
	    NR == 1 { for (i = 2; i <= NF; i++) h[$i] = i; next }
	    { s = $h["seq"]; if (s != last + 1) p = 0; else p++; last = s
	      ev[p] = $h["events"]; d = $h["pp"]
	      if (!(int(ev[p] / 4) % 2)) next
	      n++
	      if ($h["ep_miss"] == 0 && d <= p && !(d > 0 &&
	          int(ev[p - d] / 4) % 2 + int(ev[p - d] / 16) % 2)) bad++ }
	    END { print bad + 0, "of", n, "L1-D misses for nothing"
	      exit !(n > 10000 && bad * 1000 < n) }'
	# whole fragments, tails from an anchor and pieces: no second pass
	fall=$(stat kept "$T/f.pmr")
	[ "$fall" -gt 150 ]
	wr=$(($(stat kept_whole "$T/f.pmr") + $(stat resync_kept "$T/f.pmr")))
	[ "$wr" -le "$fall" ]
	[ "$fall" -le $((wr + $(stat pieces "$T/f.pmr"))) ]
	[ "$(stat truncated "$T/f.pmr")" = 0 ]
	[ "$(stat resync_kept "$T/f.pmr")" -gt 0 ]
	[ "$(stat stripped_i "$T/f.pmr")" -gt 0 ]
	# a return on an empty stack whose samples' targets the signature
	# disagrees with goes to its callers' return sites: taken, and the
	# indirect targets the trace checks stay true (95%)
	ru=$(stat ret_unsampled "$T/f.pmr") rs=$(stat return_sites "$T/f.pmr")
	it=$(stat indirect_true "$T/f.pmr")
	echo "return sites looked up $rs, taken for sampled returns $ru, indirect targets true $it"
	[ "$ru" -gt 0 ]
	[ "$rs" -ge "$ru" ]
	[ $((100 * ${it%/*})) -ge $((95 * ${it#*/})) ]
	# --calibrate (50, the default): the fragments' I-side stall
	# cycles past --warm were short of the DETs' rate (the cold code
	# that does not assemble); more fragments rich in them bring the
	# rate up
	drate=$("$PMVIEW" -f tsv -t DET "$T/s.pmr.zst" | awk -F '\t' '
	    NR == 1 { for (i = 2; i <= NF; i++) h[$i] = i; next }
	    { n++; m += $h["dd_fetch"] + $h["dd_itlb"] } END { print 1000 * m / n }')
	frate() {
		"$PMVIEW" -f tsv -t GNODE "$1" | awk -F '\t' '
		    NR == 1 { for (i = 2; i <= NF; i++) h[$i] = i; next }
		    { k = $2 == seq + 1 ? k + 1 : 0; seq = $2
			if (k >= 1280) { n++; m += $h["dd_fetch"] + $h["dd_itlb"] } }
		    END { print 1000 * m / n }'
	}
	before=$(stat calib_before "$T/f.pmr") after=$(frate "$T/f.pmr")
	run -0 --separate-stderr "$SHOTGUN" -n 150 --calibrate 0 -p "$TOP/traces/cc1.pmr.zst" -o "$T/c0.pmr" "$T/s.pmr.zst"
	none=$(frate "$T/c0.pmr")
	# a shortfall left is said (not after the calibration brought the
	# rate), the rates as the stats have them
	[[ $stderr == *"shotgun: warning: the fragments have "*" I-side stall cycles (I-cache, ITLB) a 1000 counted nodes, the DETs "*": the code where they are does not assemble, and what they cost is understated (--calibrate draws more)"* ]]
	awk -v d="$drate" -v t="$(stat calib_target "$T/c0.pmr")" -v n="$none" \
	    -v c="$(stat calib_after "$T/c0.pmr")" -v a="$after" -v f="$(stat calib_after "$T/f.pmr")" \
	    'BEGIN { exit !((t - d)^2 < 1e-4 && (c - n)^2 < 1e-4 && (f - a)^2 < 1e-4) }'
	run -0 --separate-stderr "$SHOTGUN" -n 150 -p "$TOP/traces/cc1.pmr.zst" -o /dev/null "$T/s.pmr.zst"
	[[ $stderr != *"I-side stall cycles (I-cache, ITLB)"* ]]
	# the fragments' mispredicts and D-side misses against the DETs' (the
	# run's mix): the rates as counted here, the warning as the rule
	# (twice the standard error and 15% of the rate, either way) says
	err=$stderr
	read -r dm dd nd <<<"$("$PMVIEW" -f tsv -t DET "$T/s.pmr.zst" | awk -F '\t' '
	    NR > 1 { n++; m += int($7 / 64) % 4 != 0; d += int($7 / 4) % 8 != 0 }
	    END { print m, d, n }')"
	read -r fm fd fn <<<"$("$PMVIEW" -f tsv -t GNODE "$T/f.pmr" | awk -F '\t' '
	    NR > 1 { k = $2 == seq + 1 ? k + 1 : 0; seq = $2
		if (k >= 1280) { n++; m += int($6 / 64) % 4 != 0; d += int($6 / 4) % 8 != 0 } }
	    END { print m, d, n }')"
	echo "mispredicts: DETs $dm of $nd, fragments $fm of $fn; D-side misses: DETs $dd, fragments $fd"
	off() {	# DET events, fragment events[, nodes]: -1, 0 or 1
		awk -v d="$1" -v c="$2" -v n="$nd" -v u="${3:-$fn}" 'BEGIN { r = d / n; g = c / u
		    t = 2 * sqrt(d) / n; if (t < 0.15 * r) t = 0.15 * r
		    print (g < r - t ? -1 : g > r + t) }'
	}
	for k in "misp $dm $fm" "dmiss $dd $fd"; do
		set -- $k
		awk -v a="$(stat "$1"_det "$T/f.pmr")" -v b="$(stat "$1"_kept "$T/f.pmr")" \
		    -v d="$2" -v c="$3" -v n="$nd" -v u="$fn" \
		    'BEGIN { exit !((a - 1000 * d / n)^2 < 1e-4 && (b - 1000 * c / u)^2 < 1e-4) }'
	done
	mo=$(off "$dm" "$fm") do=$(off "$dd" "$fd")
	echo "off: mispredicts $mo, D-side misses $do"
	# cc1's fragments, seed 0, had 17% fewer mispredicts than the DETs,
	# and it was said; since 2026-11-29 (the calibration from the
	# signatures above their mean) 9% fewer, within the rule, and not
	# said (the next test has a run with too few D-side misses)
	if [ "$mo" = 0 ]; then
		[[ $err != *"mispredicts a 1000 counted nodes (the DETs"* ]]
	else
		[[ $err == *" mispredicts a 1000 counted nodes (the DETs "* ]]
	fi
	if [ "$do" = 0 ]; then
		[[ $err != *"D-side misses (the DETs"* ]]
	else
		[[ $err == *" D-side misses (the DETs "*"the costs of both are off by it"* ]]
	fi
	echo "I-side stall cycles a 1000 counted nodes: DETs $drate, fragments $none (--calibrate 0), $before before and $after after calibrating"
	[ -z "$(stat calib_extra "$T/c0.pmr")" ]
	[ "$(stat calib_extra "$T/f.pmr")" -gt 0 ]
	# consistent counts kept fragments only (the next test has a run
	# whose calibration drops some)
	[ "$(stat consistent "$T/f.pmr")" -le "$(stat kept "$T/f.pmr")" ]
	# (after: 15.3 against the DETs' 16.3 since the partial misses' fix
	# of 2026-12-02, which changed the draws; the calibration stops at
	# its 50% more nodes)
	awk -v d="$drate" -v n="$none" -v b="$before" -v a="$after" \
	    'BEGIN { exit !(n < 0.85 * d && b < 0.85 * d && a > b && a >= 0.9 * d && a < 1.2 * d) }'
	# no I-cache or ITLB miss on a node after another of its 64-byte line
	# in the same fragment (consecutive seq)
	for f in o f; do
		"$PMVIEW" -f tsv -t GNODE "$T/$f.pmr" | awk -F '\t' '
		    function hex(s,  i, c, v) { v = 0; s = tolower(substr(s, 3))
			for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef",
			    substr(s, i, 1)) - 1; v = v * 16 + c } return v }
		    NR > 1 { line = int(hex($3) / 64)
			if ($2 == seq + 1 && line == prev && ($6 % 4 != 0 || $7 > 0)) bad++
			seq = $2; prev = line }
		    END { print bad + 0, "I-side misses off a line start"; exit bad > 0 }'
	done
}

# The calibration builds fragments it does not keep (their nodes miss
# I-side less often than the DETs): those are no part of the result, and
# the counters against the trace count only the kept ones (they counted
# the dropped ones too: cc1 seed 2's consistent were 150% of the kept in
# make shotgun-eval).  Sampling seed 2 of cc1 drops 186 at -n 150.
# pmsim's default signatures (the paper's 1000 instructions) are shorter
# than --warm (1280): icost is run with a shorter --warm on them, and the
# rates shotgun checks against the DETs' are of all their nodes (they were
# of none: "0.0 mispredicts a 1000 counted nodes", a warning of nothing).
@test "shotgun: fragments not longer than --warm have their mix checked on all their nodes" {
	"$PMSIM" -q -m fields03 --shotgun=sig=500,len=1000,det=20 --warmup 20000 \
	    --max 100000 -o "$T/s.pmr" "$TOP/traces/gzip.pmr.zst"
	run "$SHOTGUN" -n 20 -p "$TOP/traces/gzip.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
	[ "$status" -eq 0 ]
	read -r fm fd fn <<<"$("$PMVIEW" -f tsv -t GNODE "$T/f.pmr" | awk -F '\t' '
	    NR > 1 { n++; m += int($6 / 64) % 4 != 0; d += int($6 / 4) % 8 != 0 }
	    END { print m, d, n }')"
	echo "fragments: $fm mispredicts, $fd D-side misses in $fn nodes"
	[ "$fn" -eq 20000 ]
	[ "$fm" -gt 0 ]
	[ "$fd" -gt 0 ]
	awk -v b="$(stat misp_kept "$T/f.pmr")" -v c="$fm" -v u="$fn" \
	    'BEGIN { exit !((b - 1000 * c / u)^2 < 1e-4) }'
	awk -v b="$(stat dmiss_kept "$T/f.pmr")" -v c="$fd" -v u="$fn" \
	    'BEGIN { exit !((b - 1000 * c / u)^2 < 1e-4) }'
	[[ $output != *"have 0.0 "* ]]
}

# A sample matched over more of its neighbours keeps more of how they ran:
# grep's fragments overstated bw by 1.9 points matched over +-10 (the
# paper's), by 0.6 over +-15, the most a DET holds (the same samples,
# pmsim seed 0; 9.1% and 3.6% from the full graph).
@test "shotgun --ctx 15 on DETs of +-15: grep's bw nearer the full graph's than with +-10" {
	"$PMSIM" -q -m fields03 --graph --shotgun=sig=2000,len=4000,det=15,ctx=15 --warmup 500000 \
	    --max 2000000 -o "$T/s.pmr" "$TOP/traces/grep.pmr.zst"
	"$ICOST" -q -f pmr -o "$T/g.cost" "$T/s.pmr"
	# the DETs' context is the default window
	"$SHOTGUN" -q -n 150 -p "$TOP/traces/grep.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
	[[ $("$PMVIEW" -f tsv -t META "$T/f.pmr") == *"shotgun-build"*" ctx=15 "* ]]
	"$ICOST" -q --warm 1280 -f pmr -o "$T/15.cost" "$T/f.pmr"
	"$SHOTGUN" -q -n 150 --ctx 10 -p "$TOP/traces/grep.pmr.zst" "$T/s.pmr" |
	    "$ICOST" -q --warm 1280 -f pmr -o "$T/10.cost"
	bw() {
		"$ICOST" --compare -f tsv "$T/g.cost" "$1" | awk -F '\t' '$2 == "bw" { print $4 }'
	}
	b15=$(bw "$T/15.cost") b10=$(bw "$T/10.cost")
	read -r r15 m15 <<<"$(summary "$T/g.cost" "$T/15.cost")"
	read -r r10 m10 <<<"$(summary "$T/g.cost" "$T/10.cost")"
	echo "bw from the graph: $b10 points at +-10, $b15 at +-15; mean relative error $r10% and $r15%"
	awk -v a="$b10" -v b="$b15" -v r="$r10" -v s="$r15" \
	    'BEGIN { exit !(b < 1.0 && b > -1.0 && a - b >= 0.6 && s < r) }'
}

# sched_row TRACE ROW LO HI: the full graph of one pmsim run of TRACE
# ($T/g.cost) and 150 fragments of its samples ($T/f.cost), both with icost
# --issue sched; fails unless the fragments' ROW is within (LO, HI) points
# of the graph's.
sched_row() {
	"$PMSIM" -q -m fields03 --graph --shotgun=sig=2000,len=4000,det=20 --warmup 500000 \
	    --max 2000000 -o "$T/s.pmr" "$TOP/traces/$1.pmr.zst"
	"$ICOST" -q --issue sched -f pmr -o "$T/g.cost" "$T/s.pmr"
	"$SHOTGUN" -q -n 150 -p "$TOP/traces/$1.pmr.zst" "$T/s.pmr" |
	    "$ICOST" -q --warm 1280 --issue sched -f pmr -o "$T/f.cost"
	e=$("$ICOST" --compare -f tsv "$T/g.cost" "$T/f.cost" |
	    awk -F '\t' -v r="$2" '$2 == r { print $4 }')
	echo "$2 from the graph: $e points"
	[ -n "$e" ]
	awk -v e="$e" -v lo="$3" -v hi="$4" 'BEGIN { exit !(e > lo && e < hi) }'
}

# icost --issue sched on fragments: a node's issue wait (RE) is another
# instance's, so the base lane schedules its issue as the other lanes do.
# When it kept the wait, the part the schedule did not explain was charged
# to bw alone (the lanes that idealize bw drop it): grep's 150 fragments
# (pmsim seed 0) overstated bw by 1.6 points, 2.0 with seed 1.
@test "icost --issue sched on shotgun's fragments: the base lane schedules its issue (grep's bw within a point)" {
	sched_row grep bw -1.0 1.0
}

# A line-fill producer (GNODE pl) must be the latest miss of its pc in
# the fragment.  A sample's distance is its own instance's; where a load
# streams through a buffer (gzip), the node that far back is often the
# same load missing on an older line, and taken as the producer it held
# the idealized lanes back: gzip's win+bmisp was 6.5 points below the
# graph's with these 150 fragments (pmsim seed 0).
@test "shotgun: a line-fill producer is the latest miss of its pc (gzip's win+bmisp within 3 points of the graph)" {
	sched_row gzip win+bmisp -3.0 3.0
}

# The calibration draws from the signatures richer in (0, 1) bits than
# their mean.  It drew from those above the DETs' I-side miss rate, but
# the bits see about half the misses (cc1: 8.2 a 1000 instructions
# against the DETs' 17.5), and in cc1's sampling seeds 3 and 4 no
# signature was: the fragments stayed at 8.9 a 1000 nodes (seed 3, -n
# 150), uncalibrated, with only a warning.
# cc1_frags SEED: cc1's samples with pmsim --seed SEED ($T/sSEED.pmr) and
# 150 fragments of them ($T/fSEED.pmr)
cc1_frags() {
	"$PMSIM" -q -m fields03 --seed "$1" --shotgun=sig=2000,len=4000,det=20 --warmup 500000 \
	    --max 2000000 -o "$T/s$1.pmr" "$TOP/traces/cc1.pmr.zst"
	"$SHOTGUN" -q -n 150 -p "$TOP/traces/cc1.pmr.zst" -o "$T/f$1.pmr" "$T/s$1.pmr"
}

@test "shotgun --calibrate: drawn from the signatures above their mean in (0, 1) bits (cc1, sampling seed 3)" {
	cc1_frags 3
	b=$(stat calib_before "$T/f3.pmr") a=$(stat calib_after "$T/f3.pmr")
	t=$(stat calib_target "$T/f3.pmr") x=$(stat calib_extra "$T/f3.pmr")
	i=$(stat i_all "$T/f3.pmr")
	# the DETs' I-side misses a 1000 (the stats' rates are of cycles)
	m=$("$PMVIEW" -f tsv -t DET "$T/s3.pmr" | awk -F '\t' '
	    NR > 1 { n++; m += $7 % 4 != 0 } END { print 1000 * m / n }')
	echo "(0, 1) bits $i a 1000 instructions, the DETs' I-side misses $m; I-side stall cycles a 1000 nodes: DETs $t, fragments $b before, $a after ($x nodes added)"
	[ -n "$x" ]
	[ "$x" -gt 0 ]
	[ -n "$b" ]
	awk -v i="$i" -v m="$m" -v t="$t" -v b="$b" -v a="$a" \
	    'BEGIN { exit !(i < m && b < 0.6 * t && a > b + 0.2 * t) }'
}

@test "shotgun --calibrate: the fragments it builds and drops are not counted as kept or consistent (cc1, sampling seed 2)" {
	cc1_frags 2
	kept=$(stat kept "$T/f2.pmr") cons=$(stat consistent "$T/f2.pmr")
	rej=$(stat calib_rejected "$T/f2.pmr")
	frags=$("$PMVIEW" -f tsv -t GNODE "$T/f2.pmr" | awk -F '\t' '
	    NR > 1 && $2 != seq + 1 { n++ } NR > 1 { seq = $2 } END { print n }')
	echo "kept $kept (fragments in the stream $frags), consistent $cons, built by the calibration and dropped $rej"
	[ "$rej" -gt 0 ]
	[ "$frags" = "$kept" ]
	[ "$cons" -le "$kept" ]
	[ "$cons" -gt $((kept * 9 / 10)) ]
}

# An indirect call's targets are looked ahead with the call's return
# address on the stack: pushed after the look-ahead, the look-ahead
# returned to the caller's caller and failed the true target of every
# callee returning within 64 instructions, and every sqlite fragment was
# cut at its interpreter's calls (100 of 100 here).
@test "shotgun: the look-ahead over an indirect call returns to the call (sqlite's fragments are whole)" {
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=4000,det=20 --warmup 500000 \
	    --max 2000000 -o "$T/s.pmr" "$TOP/traces/sqlite.pmr.zst"
	"$SHOTGUN" -n 100 -p "$TOP/traces/sqlite.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
	kept=$(stat kept "$T/f.pmr") cut=$(stat truncated "$T/f.pmr")
	echo "kept $kept, cut at a choice $cut"
	[ "$kept" = 100 ]
	[ "$cut" -le 10 ]
}

# Spec test 6 at a small scale: the sampled breakdown against the full
# graph of the same run, the paper's "profiler vs fullgraph" mean
# relative error (9%), over the rows of at least 5%, and no row off by
# more than 5 points.  (The row farthest off is gzip's win+bmisp: the
# graph 2.1 points above multisim, the fragments 2.5 below it, on these
# 800 K instructions; the fragments' 4000 instructions hold the 20x
# window only three times.)
@test "shotgun: the sampled breakdown within the paper's 9% of the full graph (gzip, grep, sort, xz, python)" {
	for tr in gzip grep sort xz python; do
		"$PMSIM" -q -m fields03 --graph --shotgun=sig=2000,len=4000,det=20 \
		    --warmup 200000 --max 800000 -o "$T/s.pmr" "$TOP/traces/$tr.pmr.zst"
		"$ICOST" -q -f pmr -o "$T/g.cost" "$T/s.pmr"
		"$SHOTGUN" -n 400 -p "$TOP/traces/$tr.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
		"$ICOST" -q --warm 1280 -f pmr -o "$T/s.cost" "$T/f.pmr"
		read -r rel max < <(summary "$T/g.cost" "$T/s.cost")
		echo "$tr: mean relative error $rel%, largest $max points"
		awk -v r="$rel" -v m="$max" 'BEGIN { exit !(r <= 9 && m <= 5) }'
	done
}

@test "shotgun is deterministic for a seed; another seed draws other fragments" {
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=1000,det=20 --max 200000 \
	    -o "$T/s.pmr" "$TOP/traces/gzip.pmr.zst"
	"$SHOTGUN" -n 50 --no-pg -p "$TOP/traces/gzip.pmr.zst" -o "$T/a.pmr" "$T/s.pmr"
	"$SHOTGUN" -n 50 --no-pg -p "$TOP/traces/gzip.pmr.zst" -o "$T/b.pmr" "$T/s.pmr"
	cmp "$T/a.pmr" "$T/b.pmr"
	"$SHOTGUN" -n 50 --no-pg --seed 7 -p "$TOP/traces/gzip.pmr.zst" -o "$T/c.pmr" "$T/s.pmr"
	run -1 cmp -s "$T/a.pmr" "$T/c.pmr"
	"$SHOTGUN" -n 50 -p "$TOP/traces/gzip.pmr.zst" -o "$T/d.pmr" "$T/s.pmr"
	run -0 "$PMVIEW" -f tsv -t PROV "$T/d.pmr"
	[[ $output == *"shotgun -n 50 -p"* ]]
	run -0 "$PMVIEW" -f tsv -t META "$T/d.pmr"
	[[ $output == *$'META\tgnode\tfragments shotgun'* ]]
	[[ $output == *$'META\tshotgun-build\tfragments=50 every=0 sig-len=0 ctx=10 bits=2 oracle=0 lookahead=64 keep=50 strata=8 resync=50 pieces=800 warm=1280 wp=sample calibrate=50 seed=0'* ]]
	[[ $output == *$'META\tconfig-digest\t'* ]]
}

@test "shotgun options: --bits 1, --sig-len, --ctx, --lookahead 0, --keep 0, --coverage; a pipeline into icost" {
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=2000,det=20 --max 200000 \
	    -o "$T/s.pmr" "$TOP/traces/sort.pmr.zst"
	p=$TOP/traces/sort.pmr.zst
	"$SHOTGUN" -n 20 --bits 1 --ctx 4 --lookahead 0 --keep 0 --stats "$T/st.txt" \
	    -p "$p" -o "$T/a.pmr" "$T/s.pmr"
	# 20 whole fragments' worth: 19 whole and 8 tails from an anchor
	# (kept read 20, behind an && that could not fail, until 2026-11-29)
	[ "$(stat worth "$T/a.pmr")" = 20 ]
	[ "$(stat kept "$T/a.pmr")" = $(($(stat kept_whole "$T/a.pmr") + $(stat resync_kept "$T/a.pmr"))) ]
	[ "$(stat truncated "$T/a.pmr")" = 0 ]
	[ "$(cat "$T/st.txt")" = "$("$PMVIEW" -f tsv -t META "$T/a.pmr" | awk -F '\t' '$2 == "shotgun-stats" { print $3 }')" ]
	[ "$(stat lookaheads "$T/a.pmr")" = 0 ]
	"$SHOTGUN" -n 20 --sig-len 500 -p "$p" -o "$T/b.pmr" "$T/s.pmr"
	[ "$("$PMVIEW" -f tsv -t GNODE "$T/b.pmr" | grep -c '^GNODE')" -le 10000 ]
	run -1 "$SHOTGUN" --ctx 11 -p "$p" -o "$T/c.pmr" "$T/s.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"wider than the DETs' context (10)"* ]]
	[ ! -e "$T/c.pmr" ]
	run -0 "$SHOTGUN" --coverage -f tsv -n 20 -p "$p" "$T/s.pmr"
	[ "${lines[0]}" = $'#pc\tclass\tnodes\tdets\tmissing' ]
	printf '%s\n' "$output" | awk -F '\t' 'NR > 1 { n += $3 } END { exit !(n >= 20 * 1000) }'
	run -0 bash -o pipefail -c "'$PMSIM' -q -m fields03 --shotgun=sig=2000,len=2000,det=20 --max 100000 '$p' | '$SHOTGUN' -n 10 -p '$p' | '$ICOST' --warm 1280 -c dl1,dmiss"
	[[ ${lines[0]} == *"over 1"[0-9]" shotgun fragments"* ]]
	[[ ${lines[1]} == "# shotgun: 2 categories"* ]]
}

@test "shotgun: fragments drawn again and again from a few signatures are warned of; sigs_kept counts them" {
	p=$TOP/traces/gzip.pmr.zst
	# two signatures in 600 K instructions (a signature every 150 K)
	"$PMSIM" -q -m fields03 --shotgun=sig=150000,len=1000,det=50 --max 600000 \
	    -o "$T/s.pmr" "$p"
	n=$("$PMVIEW" -f tsv -t SIG "$T/s.pmr" | grep -c '^SIG')
	[ "$n" -ge 1 ]
	[ "$n" -lt 15 ]
	run -0 "$SHOTGUN" -n 40 --warm 0 -p "$p" -o "$T/a.pmr" "$T/s.pmr"
	[ "$(stat kept "$T/a.pmr")" = 40 ]
	# gzip's signatures all assemble: every one is drawn
	[ "$(stat sigs_tried "$T/a.pmr")" = "$n" ]
	[ "$(stat sigs_kept "$T/a.pmr")" = "$n" ]
	[[ $output == *"warning: the 40 fragments are of $n signature"*" only (each drawn "*" times): the breakdown samples $n window"* ]]
	# each signature once: no repeats, no warning
	run -0 "$SHOTGUN" --every --warm 0 -p "$p" -o "$T/b.pmr" "$T/s.pmr"
	[ "$(stat sigs_kept "$T/b.pmr")" = "$(stat kept "$T/b.pmr")" ]
	[[ $output != *"signatures only"* ]]
	# many signatures: none
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=1000,det=50 --max 600000 \
	    -o "$T/m.pmr" "$p"
	run -0 "$SHOTGUN" -n 40 --warm 0 -p "$p" -o "$T/c.pmr" "$T/m.pmr"
	[ "$(stat sigs_kept "$T/c.pmr")" -ge 30 ]
	[ "$(stat sigs_tried "$T/c.pmr")" -lt "$(stat sigs "$T/c.pmr")" ]
	[[ $output != *"signatures only"* ]]
}

@test "shotgun: bad input is one line and exit 1, with no output file" {
	p=$TOP/traces/gzip.pmr.zst
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=1000,det=20 --max 100000 -o "$T/s.pmr" "$p"
	# another program: its path is not the signatures'
	run -1 "$SHOTGUN" -n 5 -p "$TOP/traces/sort.pmr.zst" -o "$T/x.pmr" "$T/s.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *": not the trace the run read" ]]
	[ ! -e "$T/x.pmr" ]
	# a trace shorter than the run
	"$PMTRACE" import -q --max 50000 -o "$T/short.pmr" "$p"
	run -1 "$SHOTGUN" -n 5 -p "$T/short.pmr" -o "$T/x.pmr" "$T/s.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"50000 instructions, but the samples reach instruction"*"not the trace the run read" ]]
	[ ! -e "$T/x.pmr" ]
	# no SIG records
	"$PMSIM" -q -m fields03 --max 1000 -o "$T/n.pmr" "$p"
	run -1 "$SHOTGUN" -p "$p" -o "$T/x.pmr" "$T/n.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"no SIG or DET records"* ]]
	# a SIG shorter than its bits
	"$PMVIEW" -f tsv "$T/s.pmr" | awk -F '\t' 'BEGIN { OFS = "\t" }
	    $1 == "SIG" && !done { $5 = 5000; done = 1 } $1 != "END" { print }' > "$T/b.tsv"
	"$PMVIEW" -r --no-pg -o "$T/b.pmr" "$T/b.tsv"
	run -1 "$SHOTGUN" -p "$p" -o "$T/x.pmr" "$T/b.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"a SIG of 10 + 5000 instructions with 253 bytes of bits"* ]]
	# a DET of no operation class (it indexes the by-class samples: a
	# corrupt one crashed the index)
	"$PMVIEW" -f tsv "$T/s.pmr" | awk -F '\t' 'BEGIN { OFS = "\t" }
	    $1 == "DET" && !done { $4 = 18; done = 1 } $1 != "END" { print }' > "$T/c.tsv"
	"$PMVIEW" -r --no-pg -o "$T/c.pmr" "$T/c.tsv"
	run -1 "$SHOTGUN" -p "$p" -o "$T/x.pmr" "$T/c.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *": a DET of operation class 18 (at most 17)" ]]
	[ ! -e "$T/x.pmr" ]
	# DETs of pcs not in the program are dropped and counted
	"$PMVIEW" -f tsv "$T/s.pmr" | awk -F '\t' 'BEGIN { OFS = "\t" }
	    $1 == "DET" && n++ < 3 { $3 = "0x10" } $1 != "END" { print }' > "$T/d.tsv"
	"$PMVIEW" -r --no-pg -o "$T/d.pmr" "$T/d.tsv"
	"$SHOTGUN" -n 5 -p "$p" -o "$T/d2.pmr" "$T/d.pmr"
	[ "$(stat dets_nopc "$T/d2.pmr")" = 3 ]
	# a truncated stream, two streams, a missing trace
	head -c 5000 "$T/s.pmr" > "$T/t.pmr"
	run -1 "$SHOTGUN" -p "$p" -o "$T/x.pmr" "$T/t.pmr"
	[ "${#lines[@]}" -eq 1 ]
	cat "$T/s.pmr" "$T/s.pmr" > "$T/two.pmr"
	run -1 "$SHOTGUN" -p "$p" -o "$T/x.pmr" "$T/two.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"more than one stream"* ]]
	run -1 "$SHOTGUN" -p "$T/nosuch.pmr" -o "$T/x.pmr" "$T/s.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e "$T/x.pmr" ]
	# icost refuses fragments mixed with a full graph
	"$SHOTGUN" -n 5 -p "$p" -o "$T/f.pmr" "$T/s.pmr"
	"$PMSIM" -q -m fields03 --graph --max 5000 -o "$T/g.pmr" "$p"
	cat "$T/g.pmr" "$T/f.pmr" > "$T/mix.pmr"
	run -1 "$ICOST" "$T/mix.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"shotgun fragments and a full graph"* ]]
}

@test "icost warns when fragments are too short for the window win idealizes" {
	"$PMSIM" -q -m fields03 --shotgun=sig=2000,len=1000,det=20 --max 100000 \
	    -o "$T/s.pmr" "$TOP/traces/gzip.pmr.zst"
	"$SHOTGUN" -n 10 -p "$TOP/traces/gzip.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
	run -0 --separate-stderr "$ICOST" -c win,dl1 "$T/f.pmr"
	[[ $stderr == *"fragments of 1000 instructions on average, under twice the window win idealizes (2 x 1280): win and its interactions are understated (--chain, or longer signatures, pmsim --shotgun=len=4000, and --warm=1280 avoid it)"* ]]
	# not with --chain: the window goes on from fragment to fragment
	run -0 --separate-stderr "$ICOST" --chain -c win,dl1 "$T/f.pmr"
	[ -z "$stderr" ]
	# the signatures it proposes are the machine's: champsim's window is
	# 352, 20 x 352 = 7040
	"$PMSIM" -q -m champsim --graph --max 20000 -o "$T/cg.pmr" "$TOP/traces/gzip.pmr.zst"
	run -0 --separate-stderr "$ICOST" -c win --cut 5000 "$T/cg.pmr"
	[[ $stderr == *"fragments of 5000 instructions on average, under twice the window win idealizes (2 x 7040): win and its interactions are understated (--chain, or longer signatures, pmsim --shotgun=len=15000, and --warm=7040 avoid it)"* ]]
	run -0 --separate-stderr "$ICOST" -c dl1 "$T/f.pmr"
	[ -z "$stderr" ]
	run -1 "$ICOST" --warm 1000 "$T/f.pmr"
	[[ $output == *"no fragment longer than --warm 1000"* ]]
	run -2 "$ICOST" --top=dmiss --warm 100 "$T/f.pmr"
	[[ $output == *"not with --warm"* ]]
}

@test "shotgun without -p: the program from the binaries the IMAGE records name, decoded; the same fragments" {
	need_plugin "$T"
	cc -nostdlib -static -no-pie -DN=20000 -o "$T/procs" "$DATA/icost/procs.S"
	"$PMTRACE" -q -o "$T/p.trace" -- "$T/procs"
	"$PMSIM" -q -m fields03 --shotgun=sig=500,len=2000,det=10 -o "$T/s.pmr" "$T/p.trace"
	"$SHOTGUN" -n 20 -p "$T/p.trace" -o "$T/a.pmr" "$T/s.pmr"
	"$SHOTGUN" -n 20 -o "$T/b.pmr" "$T/s.pmr"
	diff <("$PMVIEW" -f tsv -t GNODE "$T/a.pmr") <("$PMVIEW" -f tsv -t GNODE "$T/b.pmr")
	[ -z "$(stat truth "$T/b.pmr")" ]	# no trace: no truth
	# under another root
	mkdir -p "$T/root$T"
	mv "$T/procs" "$T/root$T/procs"
	run -1 --separate-stderr "$SHOTGUN" -n 20 -o "$T/c.pmr" "$T/s.pmr"
	[[ $stderr == *"'$T/procs': No such file or directory: its pcs are not in the program"* ]]
	[[ $stderr == *"no program: -p names the trace the run read, or the stream's IMAGE records the binaries (none of them could be read)"* ]]
	"$SHOTGUN" -n 20 --sysroot "$T/root" -o "$T/c.pmr" "$T/s.pmr"
	diff <("$PMVIEW" -f tsv -t GNODE "$T/a.pmr") <("$PMVIEW" -f tsv -t GNODE "$T/c.pmr")
	# another build at the recorded path
	cc -nostdlib -static -no-pie -DN=7 -o "$T/procs" "$DATA/icost/procs.S"
	run -1 "$SHOTGUN" -n 20 -o "$T/d.pmr" "$T/s.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"another build than the traced one"* ]]
	run -2 "$SHOTGUN" -p "$T/p.trace" --sysroot "$T/root" "$T/s.pmr"
}

@test "shotgun on a ChampSim trace: a call's return address from the return to it, a direct target from a later instance" {
	# a ChampSim record has no length nor target: a call's length is
	# never seen (it never falls through), so its return address went on
	# the return stack as 0; a branch first seen not taken had no target
	# for good; every fragment through either failed (core.000003: 680
	# tried, none kept, no_target 445; each fix alone kept none either)
	p=$TOP/tests/data/ext-traces/core.000003.champsim.xz
	"$PMSIM" -q -m fields03 --shotgun=sig=5000,len=2000,det=50 -o "$T/s.pmr" "$p"
	"$SHOTGUN" -q -n 50 -p "$p" -o "$T/f.pmr" "$T/s.pmr"
	echo "tried $(stat tried "$T/f.pmr") kept $(stat kept "$T/f.pmr") no_target $(stat no_target "$T/f.pmr")"
	[ "$(stat worth "$T/f.pmr")" -ge 50 ]
	[ "$(stat no_target "$T/f.pmr")" -lt "$(stat tried "$T/f.pmr")" ]
	# and on the true path: the learned return addresses are the trace's
	[ "$(stat errant "$T/f.pmr")" = 0 ]
	[ "$(stat consistent "$T/f.pmr")" = "$(stat kept "$T/f.pmr")" ]
	# simple_app: no_target 278 of 406 tries before, 146 of 261 with the
	# targets alone, 298 of 386 with the calls alone; 9 of 79 with both
	p=$TOP/tests/data/ext-traces/simple_app.champsim.xz
	"$PMSIM" -q -m fields03 --shotgun=sig=5000,len=2000,det=50 -o "$T/s.pmr" "$p"
	"$SHOTGUN" -q -n 50 -p "$p" -o "$T/f.pmr" "$T/s.pmr"
	echo "tried $(stat tried "$T/f.pmr") no_target $(stat no_target "$T/f.pmr")"
	[ $(($(stat no_target "$T/f.pmr") * 4)) -lt "$(stat tried "$T/f.pmr")" ]
	# (its fragments go further now, some down a wrong indirect target:
	# 136 of 100,000 nodes off the true path)
	[ $(($(stat off_nodes "$T/f.pmr") * 100)) -lt "$(stat nodes "$T/f.pmr")" ]
}

@test "shotgun on a window of a trace (pmsim --skip): the program from before it, the path from it" {
	"$PMSIM" -q -m fields03 --skip=600000 --max 300000 \
	    --shotgun=sig=2000,len=4000,det=20 -o "$T/s.pmr" "$TOP/traces/gzip.pmr.zst"
	"$SHOTGUN" -n 50 -p "$TOP/traces/gzip.pmr.zst" -o "$T/f.pmr" "$T/s.pmr"
	kept=$(stat kept "$T/f.pmr") cons=$(stat consistent "$T/f.pmr")
	truth=$(stat truth "$T/f.pmr")
	echo "kept $kept consistent $cons truth $truth"
	# every signature starts on the trace's path at skip + its seq, and the
	# fragments stay on it
	[ "$kept" = 50 ]
	[ "$truth" -ge 50 ]
	[ $((cons * 100)) -ge $((kept * 98)) ]
	# another trace under the window is refused
	run -1 "$SHOTGUN" -n 5 -p "$TOP/traces/sort.pmr.zst" "$T/s.pmr"
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == *"not the trace the run read"* ]]
}
