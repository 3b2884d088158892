#!/bin/bash
# demo.sh: the main job on a bundled trace ("make demo").  It looks at the
# bundled gzip trace (5 M instructions of "gzip -9", traced by pmtrace),
# then runs the Multi-Hash value profiler over its loads beside three
# software heavy-hitter algorithms at the same bytes, scored against the
# exact interval profile.  It grows into pmsim | pairs as those land.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
command -v pmview >/dev/null 2>&1 || PATH=$top/cmd:$PATH
trace=$top/traces/gzip.pmr.zst

echo "== pmtrace stats: what the trace holds (instructions by class)"
pmtrace stats "$trace"
echo
echo "== pmview: its first records (the provenance, then static instructions)"
pmview -f text -n 6 "$trace"
echo
echo "== mhash: hot (load pc, value) tuples per 10,000 loads, 1% threshold,"
echo "   Multi-Hash vs Space-Saving, Count-Min+CU, Misra-Gries at equal bytes"
mhash --trace -k value --eval -a mh,ss,cmcu,mg --summary "$trace" | grep -v '^# mhash'
