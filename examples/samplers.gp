# samplers.gp: each sampler's per-instruction error against the time-
# proportional oracle on each trace, beside the noise floor of an ideal
# random sample of as many samples (examples/samplers.mk writes insn.tsv:
# trace, sampler, error, floor, in percent, no header).  Call with
# -e "in='insn.tsv'; out='file.png'".
set terminal pngcairo size 800,500
set output out
set datafile separator "\t"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "error against the oracle, per instruction (%)"
set yrange [0:*]
set grid ytics
set key top right
set title "which sampler tells the truth (TIP's metric; bundled traces)"
set xtics rotate by -45 font ",8"
plot in using 3:xtic(strcol(1) . " " . strcol(2)) title "error" \
         lc rgb "#4472c4", \
     '' using 4 title "noise floor" lc rgb "#a5a5a5"
