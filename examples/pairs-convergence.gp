# pairs-convergence.gp: estimated / actual per static instruction against
# the samples with the property (log x), retire counts on the left and
# D-cache miss counts on the right, with the envelope 1 +- 1/sqrt(x), as
# in the ProfileMe paper's Figure 3.  Call with
# -e "in='file.tsv'; out='file.png'; S='100'".
set terminal pngcairo size 1100,500
set output out
set datafile separator "\t"
set multiplot layout 1,2 title "ProfileMe single samples, S = ".S.": estimate / exact per pc"
set logscale x
set xlabel "samples with the property"
set ylabel "estimated / actual"
set yrange [0:3]
set key top right
set samples 400
env_hi(x) = 1 + 1 / sqrt(x)
env_lo(x) = 1 - 1 / sqrt(x)
set title "retire count"
plot in using (strcol(2) eq "retires" ? $3 : 1/0):6 every ::1 with points pt 7 ps 0.4 title "pcs", \
    [1:*] env_hi(x) with lines lw 2 lc rgb "black" title "1 +- 1/sqrt(x)", \
    [1:*] env_lo(x) with lines lw 2 lc rgb "black" notitle
set title "D-cache miss count"
plot in using (strcol(2) eq "dcache_miss" ? $3 : 1/0):6 every ::1 with points pt 7 ps 0.4 title "pcs", \
    [1:*] env_hi(x) with lines lw 2 lc rgb "black" title "1 +- 1/sqrt(x)", \
    [1:*] env_lo(x) with lines lw 2 lc rgb "black" notitle
unset multiplot
