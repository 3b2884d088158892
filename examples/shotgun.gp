# shotgun.gp: shotgun's error against the full graph of the same run as
# the number of fragments grows, one line per trace (examples/shotgun.mk
# writes fragments.tsv: trace, fragments, mean relative error (percent),
# largest error (points)).  The dashed line is the paper's 9%.  Call with
# -e "in='fragments.tsv'; out='file.png'; traces='cc1 gzip ...'".
set terminal pngcairo size 800,600
set output out
set datafile separator "\t"
set logscale x 2
set xlabel "fragments (4000 instructions each)"
set ylabel "mean relative error against the full graph (%)"
set key top right
set grid
set yrange [0:*]
set title "shotgun: error as the fragments grow (fields03, bundled traces)"
plot for [t in traces] in using 2:(strcol(1) eq t ? $3 : NaN) \
         with linespoints title t, \
     9 title "paper: 9%" dt 2 lc rgb "gray"
