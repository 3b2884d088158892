#!/bin/bash
# bench.sh: trace speed and size.  Traces the microbenchmarks and a real
# program (gzip -9 on a fixed 8 MB input, about 2.1 G instructions, a
# minute or two), then reads traces back, and prints one line per run:
# instructions, bytes per instruction, million instructions per second
# (end to end, process start included).  Usage: PM_TOP=... bash bench.sh
# (PMTRACE and PMTRACE_PLUGIN may point elsewhere).
set -eu
TOP=${PM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
PMTRACE=${PMTRACE:-$TOP/cmd/pmtrace}
EXT=${PM_SHARED:+$PM_SHARED/ext-traces}
EXT=${EXT:-$TOP/tests/data/ext-traces}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
make -s -C "$TOP/traces/micro" >/dev/null
printf '%-28s %12s %10s %8s\n' run instructions bytes/insn M/s
for p in chain indep muldiv stream chase branch; do
	msg=$("$PMTRACE" -o "$D/$p.pmr.zst" -- "$TOP/traces/micro/$p" 2>&1 >/dev/null)
	set -- $(sed 's/.*: \([0-9]*\) instructions.*(\([0-9.]*\) bytes.*, \([0-9.]*\) M.*/\1 \2 \3/' <<<"$msg")
	printf '%-28s %12s %10s %8s\n' "pmtrace $p" "$1" "$2" "$3"
done
xz -dc "$EXT/simple_app.champsim.xz" > "$D/input"
msg=$("$PMTRACE" -o "$D/gzip.pmr.zst" -- gzip -9 -c "$D/input" 2>&1 >/dev/null)
set -- $(sed 's/.*: \([0-9]*\) instructions.*(\([0-9.]*\) bytes.*, \([0-9.]*\) M.*/\1 \2 \3/' <<<"$msg")
printf '%-28s %12s %10s %8s\n' "pmtrace gzip -9 (8 MB)" "$1" "$2" "$3"
for f in "$EXT/simple_app.champsim.xz" "$EXT/drmemtrace.simple_app.trace.zip" "$D/gzip.pmr.zst"; do
	s=$(date +%s.%N)
	n=$("$PMTRACE" stats "$f" | awk -F '\t' '$1 == "instructions" { print $2 }')
	e=$(date +%s.%N)
	printf '%-28s %12s %10s %8.1f\n' "read ${f##*/}" "$n" - \
	    "$(awk -v n="$n" -v s="$s" -v e="$e" 'BEGIN { print n / (e - s) / 1e6 }')"
done
