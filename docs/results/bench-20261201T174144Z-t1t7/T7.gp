set terminal svg size 900,600 dynamic font 'sans,11'
set output 'docs/results/bench-20261201T174144Z-t1t7/T7.svg'
set title "T7: conntrack and nf_tables hooks, UML retpoline kernels, pktgen netif_receive burst 1 (the packet has no route: dropped after prerouting)"
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -35
set grid ytics
set key outside top center horizontal
set yrange [0:*]
set ylabel 'ns per packet (median, 95% CI)'
plot 'docs/results/bench-20261201T174144Z-t1t7/T7.dat' using 2:3:4:xtic(1) title 'baseline', 'docs/results/bench-20261201T174144Z-t1t7/T7.dat' using 5:6:7 title 'patched'
