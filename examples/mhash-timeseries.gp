# mhash-timeseries.gp: error per interval of mhash-timeseries.sh, best
# single hash against 4 tables.  Call with -e "in='file.tsv'; out='file.png'".
set terminal pngcairo size 900,450
set output out
set datafile separator "\t"
set xlabel "interval (1M events)"
set ylabel "error E (%)"
set key top right
set title "Error per interval at 1M/0.1% (Fig. 13)"
plot in using 1:2 every ::1 with linespoints title "best single hash", \
    '' using 1:3 every ::1 with linespoints title "4 tables, C1R0P1"
