# icost-multisim.gp: the graph's costs and interaction costs (percent of
# the base time) against multisim's, one point per row of each trace's
# breakdown (examples/icost-multisim.mk writes points.tsv: trace, row,
# multisim, graph).  On the diagonal the graph is exact; the band is the
# +-3 points the paper's Table 7 reaches.  Call with
# -e "in='points.tsv'; out='file.png'".
set terminal pngcairo size 800,700
set output out
set datafile separator "\t"
set xlabel "multisim: cost or icost (% of t)"
set ylabel "graph: cost or icost (% of t)"
set key top left
set grid
set size square
set title "icost: dependence graph against multisim (fields03, bundled traces)"
plot x title "exact" lc rgb "black", \
     x + 3 title "+-3 points" dt 2 lc rgb "gray", \
     x - 3 notitle dt 2 lc rgb "gray", \
     in using 3:4 with points pt 7 ps 0.8 title "rows of every trace"
