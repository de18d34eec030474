cd /work/main || exit 125
export NFTLAB_RESULTS=/work/main/build/results/t0-v4/t0/raw/baseline-retpoline-r1 NFTLAB_TOP=/work/main NFTLAB_IN_GUEST=1
export NFTLAB_KERNEL_INFO=/root/.cache/nftlab/kernels/6.12.117-1~deb12u1/x86_64-baseline-retpoline/BUILD-INFO
exec env NFTB_COUNTS=1000\ 1000\ 3000 /work/main/nft_concat_range/guest/run-plan build/results/t0-v4/t0/raw/baseline-retpoline-r1/plan build/results/t0-v4/t0/raw/baseline-retpoline-r1/out
