# mhash-baselines.gp: E_net against bytes, one line per algorithm, from
# mhash-baselines.sh.  Call with -e "in='file.tsv'; out='file.png'".
set terminal pngcairo size 900,500
set output out
set datafile separator "\t"
set xlabel "bytes"
set ylabel "average error E_{net} (%)"
set logscale x 2
set logscale y
set key top right
set title "Error at equal bytes (10K events, 1%)"
# One line per algorithm; 0.001 is added so that zero shows on the log
# scale.
plot for [a in "mh bsh ss cmcu mg"] \
	sprintf("< awk -F'\t' '$2 == \"%s\"' '%s'", a, in) \
	using 4:($5 + 0.001) with linespoints title a
