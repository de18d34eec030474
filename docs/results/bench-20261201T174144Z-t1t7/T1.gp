set terminal svg size 1200,600 dynamic font 'sans,11'
set output 'docs/results/bench-20261201T174144Z-t1t7/T1.svg'
set title "T1: set lookups, baseline vs patched (retpoline flavor)"
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -35
set grid ytics
set key outside top center horizontal
set yrange [0:*]
set bmargin 10
set rmargin 8
set ylabel 'ns per lookup (median, 95% CI)'
plot 'docs/results/bench-20261201T174144Z-t1t7/T1.dat' using 2:3:4:xtic(1) title 'baseline', 'docs/results/bench-20261201T174144Z-t1t7/T1.dat' using 5:6:7 title 'patched'
