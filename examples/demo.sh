#!/bin/bash
# demo.sh: the main job on a bundled trace ("make demo").  The bundled
# trace of "gzip -9" (5 M instructions, traced by pmtrace) runs through
# pmsim on ProfileMe's machine with paired sampling and exact truth; pairs
# turns the samples into per-instruction metrics and prints each estimate
# beside the exact value.  Then mhash profiles the trace's load values,
# beside three software algorithms at the same bytes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
command -v pmview >/dev/null 2>&1 || PATH=$top/cmd:$PATH
trace=$top/traces/gzip.pmr.zst
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== pmtrace stats: the trace (instructions by class)"
pmtrace stats "$trace" | head -4
echo
echo "== pmsim -m alpha21264 --profileme=paired,S=256 --truth"
pmsim -m alpha21264 --profileme=paired,S=256 --seed 1 --truth -o "$tmp/sim.pmr.zst" "$trace"
pmview -t STATS -f text "$tmp/sim.pmr.zst" | cut -c1-160
echo
echo "== pairs --truth --top=10: estimate, interval, exact value and error per pc"
pairs --truth --top=10 "$tmp/sim.pmr.zst"
echo
echo "== mhash: hot (load pc, value) tuples per 10,000 loads, 1% threshold,"
echo "   Multi-Hash vs Space-Saving, Count-Min+CU, Misra-Gries at equal bytes"
mhash --trace -k value --eval -a mh,ss,cmcu,mg --summary "$trace" | grep -v '^# mhash'
echo
echo "== to run these programs by name, paste this line (from $top):"
echo "export PATH=\"$top/cmd:\$PATH\""
