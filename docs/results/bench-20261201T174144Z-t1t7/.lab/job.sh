cd /work/integ || exit 125
export NFTLAB_RESULTS=/work/integ/build/results/bench-20261201T174144Z NFTLAB_TOP=/work/integ NFTLAB_IN_GUEST=1
export NFTLAB_KERNEL_INFO=/root/.cache/nftlab/kernels/6.12.117-1~deb12u1/um-baseline-retpoline/BUILD-INFO
exec env NFTB_DURATION=0.5 NFTB_KNOB=net.netfilter.nft_force_indirect_calls NFTB_NFTLAB=/work/integ/userspace/build/nftlab /work/integ/nft_concat_range/guest/run-plan /work/integ/build/results/bench-20261201T174144Z/raw/r2-baseline-retpoline/plan /work/integ/build/results/bench-20261201T174144Z/raw/r2-baseline-retpoline/out
