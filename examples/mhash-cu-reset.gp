# mhash-cu-reset.gp: stacked error parts per configuration of
# mhash-cu-reset.sh.  Call with -e "in='file.tsv'; out='file.png'".
set terminal pngcairo size 1100,550
set bmargin 8
set output out
set datafile separator "\t"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.8
set ylabel "average error E_{net} (%)"
set xtics rotate by -45 noenhanced font ",8"
set key top left
set title "Single hash R/P (Fig. 7) and multi-hash C/R by tables (Fig. 10)"
plot in using 4:xticlabels(stringcolumn(2)) every ::1 title "NP", \
    '' using 5 every ::1 title "NN", \
    '' using 6 every ::1 title "FP", \
    '' using 7 every ::1 title "FN"
