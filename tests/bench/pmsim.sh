#!/bin/bash
# tests/bench/pmsim.sh: simulation speed of pmsim, in simulated
# instructions and cycles per second (best of $RUNS runs, wall clock),
# on every bundled trace (alpha21264 with ProfileMe single sampling) and
# on the ChampSim / drmemtrace examples, with the alpha21264 preset:
# plain, with ProfileMe paired sampling and truth (the issue's goal:
# >= 2-5 M instructions/s and >= 5 M cycles/s), and with the champsim
# preset.  Run by "make bench"; alone:
#
#   PM_TOP=$PWD bash tests/bench/pmsim.sh
#   REPEAT=100 RUNS=5 PM_TOP=$PWD bash tests/bench/pmsim.sh
#
# The long trace is the drmemtrace simple_app (136K instructions)
# imported into a pmr stream and concatenated $REPEAT times (concatenated
# streams are one valid trace).
set -euo pipefail
TOP=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
EXT=${PM_SHARED:+$PM_SHARED/ext-traces}
EXT=${EXT:-$TOP/tests/data/ext-traces}
PMSIM=${PMSIM:-$TOP/cmd/pmsim}
PMTRACE=${PMTRACE:-$TOP/cmd/pmtrace}
REPEAT=${REPEAT:-40}
RUNS=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# rate TRACE ARGS...: prints "instructions/s cycles/s" of the best run.
rate() {
	local f=$1 best=0 line t0 t1 n c
	shift
	for ((i = 0; i < RUNS; i++)); do
		t0=$(date +%s.%N)
		line=$("$PMSIM" -v --no-pg "$@" -o /dev/null "$f" 2>&1)
		t1=$(date +%s.%N)
		n=$(printf '%s\n' "$line" | sed -n 's/^pmsim: \([0-9]*\) instructions.*/\1/p')
		c=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) cycles.*/\1/p')
		best=$(awk -v b="$best" -v n="$n" -v c="$c" -v a="$t0" -v z="$t1" \
		    'BEGIN { r = n / (z - a); if (r > b + 0) print r " " c / (z - a) " " n;
			else print b }')
	done
	printf '%s\n' "$best"
}

report() {
	local name=$1 f=$2
	shift 2
	rate "$f" "$@" | awk -v name="$name" -v args="$*" '{
	    printf "%-28s %-42s %7.2f M inst/s %7.2f M cycles/s (%d instructions)\n",
		name, args, $1 / 1e6, $2 / 1e6, $3 }'
}

echo "== pmsim benchmarks (best of $RUNS)"
traces=("$TOP/tests/data/sim/app30k.champsim.xz")
[ -r "$EXT/simple_app.champsim.xz" ] &&
    traces+=("$EXT/simple_app.champsim.xz")
if [ -r "$EXT/drmemtrace.simple_app.trace.zip" ] &&
    "$PMTRACE" import -q --no-pg -o "$tmp/app.pmr" \
    "$EXT/drmemtrace.simple_app.trace.zip" 2>/dev/null; then
	for ((i = 0; i < REPEAT; i++)); do cat "$tmp/app.pmr"; done > "$tmp/long.pmr"
	traces+=("$tmp/long.pmr")
fi
# every bundled trace with the goal's setting (alpha21264, ProfileMe on)
for f in "$TOP"/traces/*.pmr.zst; do
	report "$(basename "$f")" "$f" --profileme=single,S=4096
done
for f in "${traces[@]}"; do
	n=$(basename "$f")
	[ "$f" = "$tmp/long.pmr" ] && n="simple_app.pmr x$REPEAT"
	report "$n" "$f"
	report "$n" "$f" --profileme=paired,S=1000 --truth
	report "$n" "$f" -m champsim
done
