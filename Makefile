# nftlab: retpoline-free nftables set lookups, and the lab that measures them.
# See README.md.  Every target installs what it needs first (make deps).

SHELL := /bin/bash
NFTLAB_CACHE ?= $(HOME)/.cache/nftlab
export NFTLAB_CACHE

.PHONY: all deps check check-full check-series bench bench-quick kernels userspace clean help

all: userspace

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## deps          install the Debian packages nftlab needs (idempotent)
deps:
	@kernel/install-deps

## userspace     build the nftlab tool
userspace: deps
	$(MAKE) -C userspace

## check         all tests (builds the patched UML and x86_64 kernels it tests)
check: deps
	@tests/run-check

## check-full    check plus the long selftest groups and bench-quick on every flavor
check-full: deps
	@NFTLAB_CHECK_FULL=1 tests/run-check

## check-series  build and smoke-test the kernel after every patch (bisect check)
check-series: deps
	@kernel/check-series

## kernels       build all UML lab kernels ({baseline,patched} x {retpoline,eibrs,plain})
kernels: deps
	@for v in baseline patched; do for f in retpoline eibrs plain; do \
		kernel/build um $$v $$f >/dev/null || exit 1; done; done

## bench         the performance suite: tables in build/results/bench-<timestamp>/ (FULL=1: more reps)
bench: deps userspace
	@nft_concat_range/bench $(if $(FULL),--full)

## bench-quick   every benchmark scenario once with small counts (validity only)
bench-quick: deps userspace
	@nft_concat_range/bench-quick

clean:
	rm -rf build
	-$(MAKE) -C userspace clean
