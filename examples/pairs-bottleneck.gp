# pairs-bottleneck.gp: wasted issue slots against in-progress latency per
# instruction, one point type per loop (estimates filled, exact values
# open), as in the ProfileMe paper's Figure 7.  Call with
# -e "in='file.tsv'; out='file.png'".
set terminal pngcairo size 800,600
set output out
set datafile separator "\t"
set xlabel "total in-progress latency (cycles)"
set ylabel "wasted issue slots"
set key top left
set title "ProfileMe pairs: latency vs wasted issue slots, three loops"
plot in using (strcol(1) eq "indep" ? $3 : 1/0):4 every ::1 pt 9 ps 1.2 lc 1 title "indep (estimate)", \
    '' using (strcol(1) eq "chain" ? $3 : 1/0):4 every ::1 pt 7 ps 1.2 lc 2 title "chain (estimate)", \
    '' using (strcol(1) eq "muldiv" ? $3 : 1/0):4 every ::1 pt 5 ps 1.2 lc 3 title "muldiv (estimate)", \
    '' using (strcol(1) eq "indep" ? $5 : 1/0):6 every ::1 pt 8 ps 1.2 lc 1 title "indep (exact)", \
    '' using (strcol(1) eq "chain" ? $5 : 1/0):6 every ::1 pt 6 ps 1.2 lc 2 title "chain (exact)", \
    '' using (strcol(1) eq "muldiv" ? $5 : 1/0):6 every ::1 pt 4 ps 1.2 lc 3 title "muldiv (exact)"
