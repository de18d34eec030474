set terminal svg size 900,600 dynamic font 'sans,11'
set output '/work/main/docs/results/bench-20261201T120133Z-t6/T6.svg'
set title "T6: dynset, 'update @dyn { ip saddr }' on an rhash set (1000 source addresses, pktgen burst 1), patched retpoline kernel, knob 0 vs 1"
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set xtics rotate by -35
set grid ytics
set key outside top center horizontal
set yrange [0:*]
set ylabel 'ns per packet (median, 95% CI)'
plot '/work/main/docs/results/bench-20261201T120133Z-t6/T6.dat' using 2:3:4:xtic(1) title 'direct (knob 0)', '/work/main/docs/results/bench-20261201T120133Z-t6/T6.dat' using 5:6:7 title 'indirect (knob 1)'
