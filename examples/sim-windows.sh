#!/bin/sh
# sim-windows.sh: one simulation of a trace as K windows that run side by
# side and concatenate into one stream.  Window i skips i*M instructions
# (M = the trace's instructions / K), warms the caches, TLBs and
# predictors on the last W of them (--warm-caches), simulates WU more in
# detail (--warmup) and measures M (--max): the windows measure, one
# after the other, what one run with --warmup=WU --max=K*M measures.
# Prints both runs' IPC (retired / cycles over the final STATS, summed
# over the windows), the error, whether TRUTH retired per pc adds up to
# the whole run's exactly, and the wall-clock time of the whole run and
# of the K windows run P at a time.
#
#   sh examples/sim-windows.sh             # sqlite, K 4, W 1000000, WU 0
#   sh examples/sim-windows.sh traces/gzip.pmr.zst 4 100000 10000
#   P=1 ARGS='-m fields03' sh examples/sim-windows.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v pmsim >/dev/null 2>&1 || PATH=$here/../cmd:$PATH
export PATH
trace=${1:-$here/../traces/sqlite.pmr.zst}
K=${2:-4}
W=${3:-1000000}
WU=${4:-0}
P=${P:-2}
ARGS=${ARGS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
N=$(pmtrace stats "$trace" | awk '$1 == "instructions" { print $2 }')
M=$((N / K))

# ipc FILE...: retired, cycles and IPC summed over the final STATS
ipc() {
	pmview -f tsv -t STATS "$@" | awk -F '\t' '
	    /^#/ { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["final"] == 1 { r += $h["retired"]; c += $h["cycles"] }
	    END { printf "%d %d %.5f\n", r, c, r / c }'
}
# perpc FILE...: TRUTH retired summed by pc
perpc() {
	pmview -f tsv -t TRUTH "$@" | awk -F '\t' '
	    /^#/ { for (i = 1; i <= NF; i++) h[$i] = i; next }
	    $h["retired"] > 0 { n[$h["pc"]] += $h["retired"] }
	    END { for (p in n) print p, n[p] }' | sort
}
now() {
	date +%s.%N
}

t0=$(now)
# shellcheck disable=SC2086
pmsim --no-pg $ARGS --truth --warmup="$WU" --max=$((K * M)) \
    -o "$tmp/whole.pmr" "$trace"
t1=$(now)
i=0
while [ $i -lt "$K" ]; do
	echo "pmsim --no-pg $ARGS --truth --warmup=$WU --warm-caches=$W" \
	    "--skip=$((i * M)) --max=$M -o $tmp/win$i.pmr $trace"
	i=$((i + 1))
done | xargs -P "$P" -I{} sh -c '{}'
t2=$(now)
i=0 wins=
while [ $i -lt "$K" ]; do
	wins="$wins $tmp/win$i.pmr"
	i=$((i + 1))
done
# shellcheck disable=SC2086
cat $wins > "$tmp/windows.pmr"
# shellcheck disable=SC2046
set -- $(ipc "$tmp/whole.pmr") $(ipc "$tmp/windows.pmr")
perpc "$tmp/whole.pmr" > "$tmp/whole.pc"
perpc "$tmp/windows.pmr" > "$tmp/windows.pc"
if [ "$1" = "$4" ] && cmp -s "$tmp/whole.pc" "$tmp/windows.pc"; then
	same=equal
else
	same=DIFFERENT
fi
printf '%-8s %2s %8s %7s %9s %9s %8s %9s %7s %7s %7s\n' trace K warm warmup \
    whole windows error per-pc whole_s win_s speedup
awk -v t="${trace##*/}" -v k="$K" -v w="$W" -v wu="$WU" -v a="$3" \
    -v b="$6" -v same="$same" -v t0="$t0" -v t1="$t1" -v t2="$t2" 'BEGIN {
	sub(/\..*/, "", t)
	printf "%-8s %2d %8d %7d %9.5f %9.5f %+7.3f%% %9s %7.2f %7.2f %6.2fx\n",
	    t, k, w, wu, a, b, (b - a) / a * 100, same, t1 - t0, t2 - t1,
	    (t1 - t0) / (t2 - t1) }'
[ "$same" = equal ]
