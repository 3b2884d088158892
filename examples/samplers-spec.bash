#!/bin/bash
# samplers-spec.bash SAMPLER BASE N (not an example of its own: examples/
# samplers.mk calls it): the pmsim option that runs SAMPLER for N
# samples on average over the run of BASE (a pmsim stream of the same
# trace and --max without samples): the cycle samplers every cycles/N
# cycles, ibs every mapped/N mapped instructions, profileme every
# fetched/N fetched ones.  For examples/samplers.mk.
set -eu
s=$1 base=$2 n=$3
stat() {
	${PMVIEW:-pmview} -t STATS -f tsv "$base" | awk -F '\t' -v k="$1" '
	    $1 == "#STATS" { for (i = 1; i <= NF; i++) h[$i] = i }
	    $1 == "STATS" { print $h[k] }'
}
c=$(stat cycles)
case $s in
ibs) echo "--sampler=ibs,S=$(($(stat td_mapped) / n))" ;;
profileme) echo "--profileme=single,S=$(($(stat fetched) / n))" ;;
counter | pebs) echo "--sampler=$s,S=$((c / n)),event=cycles" ;;
*) echo "--sampler=$s,S=$((c / n))" ;;
esac
