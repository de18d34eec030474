# nftlab: retpoline-free nftables set lookups, and the lab that measures them.
# See README.md.  Every target installs what it needs first (make deps).

SHELL := /bin/bash
NFTLAB_CACHE ?= $(HOME)/.cache/nftlab
export NFTLAB_CACHE
# BASE=6.12 or BASE=7.3 selects the base tree of the kernel targets
# (default: the base of kernel/builder/bases/ that says "default: yes").
ifneq ($(BASE),)
export NFTLAB_BASE := $(BASE)
endif

.PHONY: all deps check check-full check-series check-debug kselftests series-mail bench bench-quick t0 tcg-plugin kernels userspace clean help

all: userspace

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## deps          install the Debian packages nftlab needs (idempotent)
deps:
	@kernel/builder/install-deps

## userspace     build the nftlab tool
userspace: deps
	$(MAKE) -C userspace

## check         all tests (builds the patched UML kernels it tests; no x86_64 kernel)
check: deps userspace
	@tests/run-check

## check-full    check plus the x86_64 kernel (direct calls, smoke, T0 quick), valgrind, the long selftest groups and bench-quick on every flavor
check-full: deps userspace
	@NFTLAB_CHECK_FULL=1 tests/run-check

## check-series  bisect check (UML kernel after every patch) and the x86_64 build matrix: modules, RETPOLINE=n, clang + W=1, IBT, kCFI; BASE=6.12 for the 6.12 series
check-series: deps
	@kernel/checks/check-series

## series-mail   the series as postings for git send-email (kernel/series/patches-*/postings): build/series-mail/<base>/<posting>/, each with its git send-email --dry-run output; 7.3: nf-next, nf, nf-next-intervals, the RFC and nf-next-load-time; BASE=6.12: the backport, stable
series-mail: deps
	@kernel/series/series-mail

## check-debug   the debug kernels (KASAN, lockdep, PROVE_RCU, kmemleak, failslab; KCSAN on x86_64), 1 and 2 CPUs: differential test, fault injection, soak, stress, concurrency selftests (SOAK=seconds per backend, SEED=n)
check-debug: deps userspace
	@NFTLAB_SOAK_SECONDS=$(or $(SOAK),20) $(if $(SEED),NFTLAB_DEBUG_SEED=$(SEED)) tests/reliability/check-debug.sh

## kselftests    the patched tree's netfilter kselftests (tests/lab/kselftest-list; TESTS="a.sh b.sh") on the baseline and patched UML kernels, compared test by test: build/results/kselftests-<base>-<UTC>/ (BASE=6.12: the 6.12 series)
kselftests: deps
	@tests/lab/kselftest-compare $(if $(BASE),--base $(BASE)) $(TESTS)

## tcg-plugin    build the pktcount QEMU TCG plugin (fetches the plugin API header into the cache)
tcg-plugin: deps
	$(MAKE) -C nft_concat_range/tcg O=$(CURDIR)/build/tcg

## t0            T0 only: exact per-packet counts, x86_64 kernels under QEMU TCG (results in build/results/t0-<base>-<UTC>/; BASE=6.12: the 6.12 kernels)
##               RULESET=FILE.nft PACKETS=SPEC: that ruleset instead of the suite's cells, e.g. PACKETS=daddr=10.0.0.1,dport=53
##               PATCH=FILE: what anyone's patch costs per packet (an mbox, a git format-patch directory or one
##               patch; ON=ours: on top of our series): docs/measure-your-patch.md.  CELLS=drop,hash: only those cells
t0: deps tcg-plugin
	@python3 nft_concat_range/t0.py $(if $(PATCH),patch '$(PATCH)' $(if $(ON),--on '$(ON)'),run) \
		$(if $(BASE),--base $(BASE)) $(if $(CELLS),--cells '$(CELLS)') \
		$(if $(RULESET),--ruleset '$(RULESET)') $(if $(PACKETS),--packets '$(PACKETS)')

## kernels       build all UML lab kernels ({baseline,patched} x {retpoline,eibrs,plain}; BASE= the base)
kernels: deps
	@for v in baseline patched; do for f in retpoline eibrs plain; do \
		kernel/builder/build um $$v $$f >/dev/null || exit 1; done; done

## bench         the performance suite: tables in build/results/bench-<base>-<UTC>/ (FULL=1: 1 s samples, the base perf script)
bench: deps userspace
	@nft_concat_range/bench $(if $(BASE),--base $(BASE)) $(if $(FULL),--full)

## bench-quick   every benchmark scenario once with small counts (validity only)
bench-quick: deps userspace
	@nft_concat_range/bench-quick

clean:
	rm -rf build
	-$(MAKE) -C userspace clean
