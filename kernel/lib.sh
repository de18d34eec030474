# shellcheck shell=bash
# Helpers shared by the kernel/ scripts: paths, logging, the base version and
# the series key.  Sourced, never executed.

NFTLAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${NFTLAB_CACHE:=${HOME}/.cache/nftlab}"
: "${NFTLAB_JOBS:=$(nproc)}"
: "${CCACHE_DIR:=${NFTLAB_CACHE}/ccache}"
# Baseline and patched trees build in different O= dirs: let them share hits.
: "${CCACHE_NOHASHDIR:=1}"
export NFTLAB_TOP NFTLAB_CACHE CCACHE_DIR CCACHE_NOHASHDIR

# Overridable so that tests can feed a deliberately broken series or config.
# NFTLAB_PATCHES from the environment wins over the base's own series.
_nftlab_env_patches=${NFTLAB_PATCHES:-}
: "${NFTLAB_CONFIGS:=${NFTLAB_TOP}/kernel/config}"
export NFTLAB_CONFIGS

# The lab knob's sysctl name (lab patch 0006 registers it).
force_indirect_sysctl() { printf '%s\n' "$(<"${NFTLAB_TOP}/kernel/series/force-indirect-sysctl")"; }
# has_lab_knob KDIR: the kernel built in KDIR has the knob (6.12's patched
# kernels; the 7.3 series has no lab knob): its config sets the option.
has_lab_knob() { grep -qx "$(<"${NFTLAB_TOP}/kernel/series/force-indirect-config")=y" "$1/config" 2>/dev/null; }

log() { printf '[nftlab] %s\n' "$*" >&2; }
die() { printf 'nftlab: %s\n' "$*" >&2; exit 1; }

# The bases a kernel is built from: kernel/builder/bases/NAME each, one
# "key: value" per line (package, pin, suite, patches, prefix, ...).
known_bases() { (cd "${NFTLAB_TOP}/kernel/builder/bases" && printf '%s\n' *); }

# flagged_base FIELD: the base whose file says "FIELD: yes" (exactly one
# does): a role, such as default, that one base has.
flagged_base() {
	local d

	d=$(cd "${NFTLAB_TOP}/kernel/builder/bases" && grep -lx "$1: yes" -- *) ||
		die "no file of kernel/builder/bases/ says '$1: yes'"
	[ "$(printf '%s\n' "$d" | wc -l)" = 1 ] ||
		die "more than one file of kernel/builder/bases/ says '$1: yes': $(printf '%s\n' "$d" | paste -sd ' ' -)"
	printf '%s\n' "$d"
}

# The base of every tool that is not given one.
default_base() { flagged_base default; }
# The long-term base: make check's steps without a base in their name,
# the lab knob, the SMP debug kernels.
lts_base() { flagged_base lts; }
# The base whose series tests/reliability/hookstress.sh's guest knows.
hookstress_base() { flagged_base hookstress; }

# base_field KEY: that field of the current base's file.
base_field() {
	local v

	v=$(sed -n "s/^$1: *//p" "${NFTLAB_TOP}/kernel/builder/bases/${NFTLAB_BASE}")
	[ -n "$v" ] || die "kernel/builder/bases/${NFTLAB_BASE} has no '$1:' line"
	printf '%s\n' "$v"
}

# set_base NAME: every function below then speaks of that base
# (default_base when no one says otherwise).
set_base() {
	[ -f "${NFTLAB_TOP}/kernel/builder/bases/$1" ] ||
		die "unknown base '$1' (known: $(known_bases | paste -sd ' ' -))"
	NFTLAB_BASE=$1
	NFTLAB_PATCHES=${_nftlab_env_patches:-${NFTLAB_TOP}/$(base_field patches)}
	# The series's subject prefix, for its patches and its cover letter.
	NFTLAB_SERIES_PREFIX=$(base_field prefix)
	export NFTLAB_BASE NFTLAB_PATCHES NFTLAB_SERIES_PREFIX
}

# The identity the series is formatted under: "Name <email>" from git
# config (user.name, user.email), so that whoever submits regenerates the
# files under their own name; the lab's placeholder when either is unset.
# NFTLAB_IDENT="Name <email>" wins (the stored files: the placeholder).
export NFTLAB_PLACEHOLDER_IDENT="nftlab <nftlab@localhost>"
series_ident() {
	local name email

	if [ -n "${NFTLAB_IDENT:-}" ]; then
		printf '%s\n' "$NFTLAB_IDENT"
		return
	fi
	name=$(git config user.name 2>/dev/null) || name=
	email=$(git config user.email 2>/dev/null) || email=
	if [ -n "$name" ] && [ -n "$email" ]; then
		printf '%s <%s>\n' "$name" "$email"
	else
		printf '%s\n' "$NFTLAB_PLACEHOLDER_IDENT"
	fi
}

# The fragment of the options the base's feature patches introduce, merged
# into patched kernels only.
feature_config() { printf '%s/base-%s-feature.config\n' "$NFTLAB_CONFIGS" "$NFTLAB_BASE"; }

# The Debian package of the base, e.g. linux-source-7.3.
base_package() { base_field package; }

# The pinned Debian version of the base's package.
pinned_base_version() { base_field pin; }

# Where the base's fetched package and its bookkeeping live (the base's
# "cache:" directory under NFTLAB_CACHE).
base_dir() { printf '%s/%s\n' "$NFTLAB_CACHE" "$(base_field cache)"; }

# The version actually fetched: the pin, or the newest version of the
# package when the archive no longer serves the pin (kernel/builder/fetch-base
# records it).
base_version() {
	local f

	f="$(base_dir)/current"
	[ -s "$f" ] || die "base tree $NFTLAB_BASE not fetched yet: run kernel/builder/fetch-base --base $NFTLAB_BASE"
	cat "$f"
}

# "6.12.117" from a Debian version such as "6.12.117-1~deb12u1".
upstream_version() {
	local v=${1%%-*}

	printf '%s\n' "$v"
}

# The cache's layout has this one owner (callers outside kernel/ ask
# kernel/builder/build --print-path).  src_dir VERSION: the unpacked tree of
# a Debian version; base_src: the fetched one's; kernel_obj NAME and
# kernel_out NAME: where the kernel NAME (ARCH-VARIANT-FLAVOR[-TOOLCHAIN]
# [-EXTRA]...[-TAG]) of the fetched version is built and installed.  The
# last three fail (after base_version's message) while nothing is fetched.
# Versions differ between bases, so the bases share these directories.
src_dir() { printf '%s/src/linux-%s\n' "$NFTLAB_CACHE" "$1"; }
base_src() { local v; v=$(base_version) || return 1; src_dir "$v"; }
kernel_obj() { local v; v=$(base_version) || return 1; printf '%s/build/%s/%s\n' "$NFTLAB_CACHE" "$v" "$1"; }
kernel_out() { local v; v=$(base_version) || return 1; printf '%s/kernels/%s/%s\n' "$NFTLAB_CACHE" "$v" "$1"; }

# Patch files of one group ("lab", "feature" or "lab-patched"), in series
# order.
series_patches() {
	local group=$1 line cur=""

	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		case "$line" in
		"") ;;
		"[lab]") cur=lab ;;
		"[feature]") cur=feature ;;
		"[lab-patched]") cur=lab-patched ;;
		"[stable]") cur=stable ;;
		"["*) die "${NFTLAB_PATCHES}/series: unknown group $line" ;;
		*) if [ "$cur" = "$group" ]; then printf '%s\n' "${NFTLAB_PATCHES}/${line}"; fi ;;
		esac
	done < "${NFTLAB_PATCHES}/series"
}

# Anyone's patches on top of a variant (make t0 PATCH=FILE,
# kernel/series/user-series): NFTLAB_USER_PATCHES=DIR, a directory with a
# `series` file naming its patches (one file name a line, `#` comments),
# applied after the variant's own, in that order.  The kernel's name then
# ends in -u<user_key> (kernel/builder/build), so that its build never
# replaces the lab's own kernel of the variant, and two patch sets never
# share a kernel directory.
user_patches() {
	local line dir

	[ -n "${NFTLAB_USER_PATCHES:-}" ] || return 0
	[ -f "${NFTLAB_USER_PATCHES}/series" ] ||
		die "NFTLAB_USER_PATCHES=${NFTLAB_USER_PATCHES} has no series file"
	# Absolute: git am reads them from inside the base tree.
	dir=$(realpath "$NFTLAB_USER_PATCHES")
	while IFS= read -r line; do
		line=${line%%#*}
		line=${line//[[:space:]]/}
		[ -z "$line" ] || printf '%s\n' "${dir}/${line}"
	done < "${dir}/series"
}

# Content key of NFTLAB_USER_PATCHES: the bytes of its patches, in order.
user_key() {
	local p

	while IFS= read -r p; do
		[ -f "$p" ] || die "${NFTLAB_USER_PATCHES}/series names a missing patch: $p"
		sha256sum < "$p"
	done < <(user_patches) | sha256sum | cut -c1-8
}

# Patches a variant gets: baseline = lab, patched = lab + feature +
# lab-patched (the lab's support for what the feature patches add: UML
# plumbing and the same-boot knob, kept out of the patches under review);
# then NFTLAB_USER_PATCHES' (user_patches), if set.
variant_patches() {
	case "$1" in
	baseline) series_patches lab ;;
	patched) series_patches lab; series_patches feature; series_patches lab-patched ;;
	# The base with the lab patches and the stable fixes only: what a stable
	# tree gets, without the series under review.
	stable)
		[ -n "$(series_patches stable)" ] || die "the ${NFTLAB_BASE} series has no [stable] patch: no stable variant"
		series_patches lab; series_patches stable ;;
	*) die "unknown variant '$1' (baseline, patched or stable)" ;;
	esac
	user_patches
}

# Content key of a variant: base version plus the bytes of its patches.
# The list and its files are checked in this shell: a die inside the
# process substitution or the pipe would not stop the caller.
variant_key() {
	local variant=$1 p patches

	patches=$(variant_patches "$variant") || return 1
	while IFS= read -r p; do
		[ -z "$p" ] || [ -f "$p" ] || die "series names a missing patch: $p"
	done <<< "$patches"
	{
		base_version
		while IFS= read -r p; do
			[ -z "$p" ] || sha256sum < "$p"
		done <<< "$patches"
	} | sha256sum | cut -c1-12
}

# variant_branch VARIANT: the base tree's branch of the variant that
# kernel/builder/prepare-tree makes (nftlab/VARIANT-KEY); a variant with
# anyone's patches on top (NFTLAB_USER_PATCHES) is a branch of its own,
# the key differs and the name says why.
variant_branch() {
	local key

	key=$(variant_key "$1") || return 1
	printf 'nftlab/%s%s-%s\n' "$1" "${NFTLAB_USER_PATCHES:+-user}" "$key"
}

check_flavor() {
	case "$1" in
	retpoline|eibrs|plain) ;;
	*) die "unknown flavor '$1' (retpoline, eibrs or plain)" ;;
	esac
}

check_arch() {
	case "$1" in
	um|x86_64) ;;
	*) die "unknown arch '$1' (um or x86_64)" ;;
	esac
}

# lab_cpus KDIR: the vCPUs a lab guest of the kernel in KDIR uses for
# functional tests: 2 where the kernel can run on 2 (UML: SMP, the 7.3
# base; x86_64: SMP and ACPI, kernel/config/extra-smp.config), else 1.
lab_cpus() {
	if grep -qx 'CONFIG_SMP=y' "$1/config" &&
		{ grep -qx 'CONFIG_UML=y' "$1/config" ||
			grep -qx 'CONFIG_ACPI=y' "$1/config"; }; then
		echo 2
	else
		echo 1
	fi
}

# checkpatch_ignore NAME: the message types checkpatch.pl --strict may
# report for the series patch NAME (GROUP/FILE, of the current series)
# and why, or nothing (tests/lab/series.sh and kernel/series/series-mail):
# the first line of $NFTLAB_PATCHES/checkpatch.ignore ("PATCH-GLOB TYPES
# WHY...", tab-separated; the file says why each is known) whose glob
# matches NAME.
checkpatch_ignore() {
	local f="${NFTLAB_PATCHES}/checkpatch.ignore" glob types why

	[ -f "$f" ] || return 0
	while IFS=$'\t' read -r glob types why; do
		case "$glob" in ''|'#'*) continue ;; esac
		# shellcheck disable=SC2254 # the glob is the file's pattern
		case "$1" in
		$glob)
			printf '%s %s\n' "$types" "$why"
			return 0
			;;
		esac
	done <"$f"
}

# The lock file of the base's source tree (the base's "lock:" file under
# NFTLAB_CACHE): one per base tree.
tree_lock() { printf '%s/%s\n' "$NFTLAB_CACHE" "$(base_field lock)"; }

# Serialises everything that checks out or builds in the base's source tree
# (kernel/checks/check_series/w1.py takes the same lock, flock(2) on tree_lock).
with_tree_lock() {
	mkdir -p "$NFTLAB_CACHE"
	local lock

	lock=$(tree_lock)
	exec 9>"$lock"
	if ! flock -n 9; then
		log "waiting for another nftlab build to release $lock"
		flock 9
	fi
}

# make variables of a toolchain (one per line): gcc, llvm (LLVM=1: clang,
# ld.lld, llvm-*) or llvm-N (LLVM=-N: clang-N, ...); ccache in front of the
# compilers.
toolchain_make_vars() {
	local v

	case "$1" in
	gcc) printf '%s\n' "CC=ccache gcc" "HOSTCC=ccache gcc"; return ;;
	llvm) v="" ;;
	llvm-[0-9]*) v="-${1#llvm-}" ;;
	*) die "unknown toolchain '$1' (gcc, llvm or llvm-N)" ;;
	esac
	if ! command -v "clang$v" >/dev/null || ! command -v "ld.lld$v" >/dev/null; then
		die "toolchain $1: clang$v or ld.lld$v missing (make deps installs kernel/builder/deps.txt)"
	fi
	printf '%s\n' "LLVM=${v:-1}" "CC=ccache clang$v" "HOSTCC=ccache clang$v"
}

set_base "${NFTLAB_BASE:-$(default_base)}"
