# mhash-tables.gp: E_net (log scale) per configuration of mhash-tables.sh,
# one bar group per setting, stacked by error kind (NP, NN, FP, FN) as in
# the paper's figures.  Call with -e "in='file.tsv'; out='file.png'".
set terminal pngcairo size 900,550
set bmargin 8
set output out
set datafile separator "\t"
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.8
set ylabel "average error E_{net} (%)"
set xtics rotate by -35 noenhanced
set key top left
set title "Multi-Hash: error by number of tables (2K counters, C1R0P1)"
plot in using 5:xticlabels(stringcolumn(1)."/".stringcolumn(2)) \
	every ::1 title "NP", \
    '' using 6 every ::1 title "NN", \
    '' using 7 every ::1 title "FP", \
    '' using 8 every ::1 title "FN"
