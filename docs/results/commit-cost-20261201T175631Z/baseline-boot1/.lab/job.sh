cd /work/main || exit 125
export NFTLAB_RESULTS=/work/main/build/results/commit-cost-20261201T175631Z/baseline-boot1 NFTLAB_TOP=/work/main NFTLAB_IN_GUEST=1
export NFTLAB_KERNEL_INFO=/root/.cache/nftlab/kernels/6.12.117-1~deb12u1/um-baseline-retpoline/BUILD-INFO
exec bash -c ip\ netns\ add\ ccost\ \&\&\ ip\ netns\ exec\ ccost\ python3\ /work/main/nft_concat_range/guest/commit-cost.py\ --nftlab\ /work/main/userspace/build/nftlab\ --sizes\ 1000\,10000\,100000\ --reps\ 15\ \>\ \$NFTLAB_RESULTS/cost.jsonl
