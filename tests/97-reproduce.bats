#!/usr/bin/env bats
# make reproduce (examples/reproduce.mk, examples/results.sh): RESULTS.md
# lists a part without outputs as missing, never a number; the launcher
# prefix RUN reaches every simulation of the make-based parts.

load test_helper

setup() {
	T=$BATS_TEST_TMPDIR
}

@test "results.sh: with no outputs, every part is listed as missing and no table is made up" {
	run -0 --separate-stderr bash "$TOP/examples/results.sh" "$T"
	[ -z "$stderr" ]
	for f in profileme/pairs-convergence.summary profileme/pairs-paths.tsv \
	    multihash/mhash-tables.tsv multihash/mhash-traces.tsv \
	    samplers/table.tsv dcpicalc/table.tsv dcpicalc/fig2.txt \
	    icost-multisim/summary.tsv shotgun/summary.tsv; do
		[[ $output == *"*(missing: $T/$f)*"* ]] || { echo "$f not missing"; return 1; }
	done
	! grep -q '^|---' <<<"$output"
}

@test "results.sh: a table present is rendered, its rows and header" {
	mkdir -p "$T/dcpicalc"
	printf 'trace\truns\twithin5\nsqlite\trun 1\t48.9\n' > "$T/dcpicalc/table.tsv"
	run -0 bash "$TOP/examples/results.sh" "$T"
	[[ $output == *$'| trace | runs | within5 |\n|---|---|---|\n| sqlite | run 1 | 48.9 |'* ]]
}

@test "reproduce.mk: RUN prefixes the simulations of every make-based part" {
	local mk
	for mk in samplers dcpicalc icost-multisim shotgun; do
		run -0 make -n -f "$TOP/examples/$mk.mk" TOP="$TOP" RUN=XRUN \
		    PMSIM=/bin/PMSIM ICOST="$BIN/icost" OUT="$T/$mk" TRACES=gzip
		grep -q 'XRUN /bin/PMSIM' <<<"$output" ||
		    { echo "$mk: no RUN prefix"; return 1; }
	done
	# and reproduce.mk hands it down
	run -0 make -n -f "$TOP/examples/reproduce.mk" TOP="$TOP" BIN=/bin \
	    RUN=XRUN OUT="$T/o" samplers
	[[ $output == *"RUN='XRUN'"* ]]
}
