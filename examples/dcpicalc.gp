# examples/dcpicalc.gp: the shape of DCPI's Figs. 8 and 9 (SOSP '97 §6.2):
# pmprof calc's frequency errors in 5% buckets, the share of samples
# (instructions) and of executions (edges), averaged over the traces.
# gnuplot -e "in='hist.tsv'; out='fig8.png'" dcpicalc.gp
set terminal pngcairo size 900,450
set output out
set datafile separator "\t"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "% of samples / executions"
set xlabel "error of F P against the exact count (5% buckets)"
set xtics rotate by -45
set yrange [0:*]
set key top left
plot in using 2:xtic(1) title "instructions (by samples)", \
     '' using 3 title "edges (by executions)"
