// SPDX-License-Identifier: GPL-2.0
/*
 * pktcount: a QEMU TCG plugin that counts what the guest kernel executes for
 * each packet, exactly.
 *
 * Theory of operation
 * -------------------
 * Timing in a shared two-vCPU VM cannot resolve a few percent, but QEMU's
 * TCG translates every guest instruction, so a plugin can count them.  What
 * a packet costs is counted inside a "region": the dynamic extent of a
 * direct call from a "caller" function to a "region" function, e.g. pktgen's
 * call of netif_receive_skb() (the whole receive path of one packet: the
 * ingress hook, nf_tables, the set lookups) or of __dev_queue_xmit() (the
 * egress path).  The plugin finds those call instructions itself when it
 * translates the caller (opcode E8 whose target is a region function): the
 * region opens after the call instruction and closes when execution comes
 * back to the instruction after it.  One region is one packet.
 *
 * Interrupts and exceptions that arrive inside a region are not the
 * packet's work, and when they arrive depends on timer and device events,
 * not on the packet: the region is suspended from the first instruction of
 * an IDT entry ("irq" symbols: the driver lists every entry point,
 * including each external-vector stub) to the matching iretq, nesting
 * included.  The driver checks that what remains is the same in every run.
 *
 * Counted, in total and inside regions (irqs excluded):
 *   kernel_insns    instructions executed at kernel addresses
 *   indirect_calls  near "call *" (FF /2) outside the thunks
 *   indirect_jumps  near "jmp *" (FF /4) outside the thunks
 *   packets         regions opened
 *   leaves          regions closed (the driver checks leaves == packets)
 *   irq_entries     interrupts and exceptions entered
 *   irets           iretq executed (more than irq_entries: an iretq that
 *                   does not end an interrupt, e.g. sync_core())
 *   and per "count" or "thunk" symbol: executions of its first instruction,
 *   i.e. calls of a function or uses of a retpoline thunk;
 *   and with funcs=PATH, per function: instructions inside regions (only
 *   the region part, and only functions that ran in one: "funcs" of the
 *   snapshot, absent without funcs=PATH).
 *
 * Instructions are counted per translation block (TB), when the block
 * starts: TCG takes interrupts only between blocks, and with -icount a
 * block without the instruction budget to finish exits before its
 * callbacks run.  A block can still stop early on a fault (kernel code
 * faults in the middle of a block only on user accesses, which a packet
 * path does not make) or be re-executed after device I/O in its middle (a
 * packet path on a dummy device does none): the totals outside regions are
 * approximate, the region counts are what the driver checks.  The region and irq state
 * changes line up with block boundaries: a call and an iretq end a block,
 * a return address and an IDT entry start one.  Events at the start of a
 * block are applied before it is counted, events at its last instruction
 * after.
 *
 * Per function (funcs=PATH, off unless asked for): the instructions counted
 * in kernel_insns inside regions, attributed to the function that holds
 * each of them.  The driver lists every text symbol with its size, made
 * non-overlapping; the plugin looks each instruction up when it
 * translates a block (binary search; an address in no listed function
 * goes to the pseudo-function "(none)") and groups the block's
 * instructions into runs of one function.  A block nearly always lies in
 * one function, whose index then travels in the block's callback data;
 * one that runs on into the next function (a fall-through) gets a list of
 * runs.  Both are counted where and when kernel_insns is, so that the
 * per-function counts of a region add up to its kernel_insns exactly.
 *
 * The counters are plain variables updated from the vCPU thread, so the
 * plugin refuses a guest with more than one vCPU.  Each time the guest
 * executes a "mark" instruction (the entry of a kernel function named by the
 * driver) the plugin writes every counter as one JSON line.
 *
 * Arguments (-plugin FILE,arg=value,...):
 *   syms=PATH   lines "KIND ADDRESS SIZE NAME" (hex address and size); KIND
 *               is count, thunk, mark, irq (an IDT entry point) or site (a
 *               call instruction and its length)
 *   out=PATH    where the snapshots go, one JSON object per line
 *   funcs=PATH  optional: lines "ADDRESS SIZE NAME" (hex), every kernel
 *               function, sizes > 0, ranges not overlapping
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum sym_kind { SYM_COUNT, SYM_THUNK, SYM_MARK, SYM_IRQ, SYM_SITE };

static const char *const kind_names[] = {
	[SYM_COUNT] = "count", [SYM_THUNK] = "thunk", [SYM_MARK] = "mark",
	[SYM_IRQ] = "irq", [SYM_SITE] = "site",
};

/* A counter: its total and the part inside regions. */
struct counter {
	uint64_t total;
	uint64_t region;
};

struct sym {
	enum sym_kind kind;
	uint64_t addr;
	uint64_t size;
	char name[128];
	struct counter calls;	/* count and thunk */
};

enum {
	CTR_KERNEL_INSNS, CTR_ICALL, CTR_IJMP, CTR_PACKETS, CTR_LEAVES,
	CTR_IRQ_ENTRIES, CTR_IRETS, CTR_FIXED
};

static const char *const fixed_names[CTR_FIXED] = {
	"kernel_insns", "indirect_calls", "indirect_jumps", "packets", "leaves",
	"irq_entries", "irets",
};

static struct sym *syms;	/* sorted by address */
static size_t nsyms;
static struct counter fixed[CTR_FIXED];
static FILE *out;
static uint64_t nmarks;

/* A function of funcs=PATH and the instructions counted in it in regions. */
struct func {
	uint64_t addr;
	uint64_t size;
	const char *name;
	uint64_t region;
};

/* Sorted by address, not overlapping; funcs[nfuncs] is "(none)".  NULL
 * when no attribution was asked for.
 */
static struct func *funcs;
static size_t nfuncs;

/* A block that spans functions: its info word and its runs. */
struct tb_runs {
	uint64_t info;
	size_t nruns;
	struct {
		struct func *func;
		uint64_t ninsns;
	} run[];
};

/* Where the vCPU is: inside a region, and how deep in interrupts. */
static bool in_region;
static unsigned int irq_depth;

/* TB flags, packed with the instruction count into the TB callback's data. */
#define TB_LEAVE	(1ULL << 32)	/* starts at a region's return address */
#define TB_IRQ		(1ULL << 33)	/* starts at an IDT entry stub */
#define TB_NINSNS	0xffffffffULL
/* funcs: 1 + the index of the function that holds the whole block, 0 when
 * attribution is off or the block has runs (struct tb_runs).
 */
#define TB_FUNC_SHIFT	34
#define TB_FUNC_MAX	((1ULL << (64 - TB_FUNC_SHIFT)) - 1)

static bool is_kernel(uint64_t vaddr)
{
	return vaddr >= 0xffff800000000000ULL;
}

static bool counting_region(void)
{
	return in_region && irq_depth == 0;
}

static void bump(struct counter *c)
{
	c->total++;
	if (counting_region())
		c->region++;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The symbol that starts exactly at VADDR, if any. */
static struct sym *sym_at(uint64_t vaddr)
{
	size_t lo = 0, hi = nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nsyms && syms[lo].addr == vaddr ? &syms[lo] : NULL;
}

/* The symbol of KIND whose range holds VADDR.  Few symbols: a scan at
 * translation time is fine.
 */
static struct sym *sym_containing(uint64_t vaddr, enum sym_kind kind)
{
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i].kind == kind && vaddr >= syms[i].addr &&
		    vaddr < syms[i].addr + syms[i].size)
			return &syms[i];
	return NULL;
}

/* The function that holds VADDR, or "(none)". */
static struct func *func_of(uint64_t vaddr)
{
	size_t lo = 0, hi = nfuncs;

	/* the first function that starts after VADDR */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (funcs[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && vaddr - funcs[lo - 1].addr < funcs[lo - 1].size)
		return &funcs[lo - 1];
	return &funcs[nfuncs];
}

/* Is VADDR the return address of a region call?  Few sites: a scan. */
static bool is_leave_addr(uint64_t vaddr)
{
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i].kind == SYM_SITE && syms[i].addr + syms[i].size == vaddr)
			return true;
	return false;
}

/* Length of the legacy and REX prefixes of the instruction at P. */
static size_t prefix_len(const uint8_t *p, size_t len)
{
	size_t i = 0;

	while (i < len && (p[i] == 0x26 || p[i] == 0x2e || p[i] == 0x36 ||
			   p[i] == 0x3e || p[i] == 0x64 || p[i] == 0x65 ||
			   p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf0 ||
			   p[i] == 0xf2 || p[i] == 0xf3))
		i++;
	if (i < len && (p[i] & 0xf0) == 0x40)	/* REX */
		i++;
	return i;
}

/* 0 = not an indirect branch, else CTR_ICALL or CTR_IJMP. */
static int indirect_kind(const uint8_t *p, size_t len)
{
	size_t i = prefix_len(p, len);
	unsigned int reg;

	if (i + 1 >= len || p[i] != 0xff)
		return 0;
	/* /3 and /5 are far calls and jumps, which kernel code does not use */
	reg = (p[i + 1] >> 3) & 7;
	if (reg == 2)
		return CTR_ICALL;
	if (reg == 4)
		return CTR_IJMP;
	return 0;
}

static bool is_iretq(const uint8_t *p, size_t len)
{
	return len == 2 && p[0] == 0x48 && p[1] == 0xcf;
}

static void write_counter(const char *name, const struct counter *c, bool *first)
{
	fprintf(out, "%s\"%s\": [%" PRIu64 ", %" PRIu64 "]", *first ? "" : ", ",
		name, c->total, c->region);
	*first = false;
}

/* One JSON line: every counter as [total, in regions]. */
static void write_snapshot(const char *mark)
{
	bool first = true;

	fprintf(out, "{\"mark\": \"%s\", \"seq\": %" PRIu64 ", \"counters\": {",
		mark, nmarks++);
	for (size_t i = 0; i < CTR_FIXED; i++)
		write_counter(fixed_names[i], &fixed[i], &first);
	fputs("}, \"calls\": {", out);
	first = true;
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i].kind == SYM_COUNT || syms[i].kind == SYM_THUNK)
			write_counter(syms[i].name, &syms[i].calls, &first);
	fputc('}', out);
	if (funcs) {
		/* region part only: totals would list every function the
		 * boot ever ran, in every snapshot
		 */
		fputs(", \"funcs\": {", out);
		first = true;
		for (size_t i = 0; i <= nfuncs; i++) {
			if (!funcs[i].region)
				continue;
			fprintf(out, "%s\"%s\": %" PRIu64, first ? "" : ", ",
				funcs[i].name, funcs[i].region);
			first = false;
		}
		fputc('}', out);
	}
	fputs("}\n", out);
	fflush(out);
}

/* The start of a block: its events, then its instructions.  Whether they
 * count as a region's.
 */
static bool tb_start(uint64_t info)
{
	uint64_t n = info & TB_NINSNS;

	if (info & TB_IRQ) {
		irq_depth++;
		fixed[CTR_IRQ_ENTRIES].total++;
	}
	/* The caller runs in task context: whatever the depth says, no
	 * interrupt is in progress there (an iretq we did not see, or an
	 * exit through another path, must not stop the counting for good).
	 */
	if (info & TB_LEAVE) {
		if (in_region)
			fixed[CTR_LEAVES].total++;
		in_region = false;
		irq_depth = 0;
	}
	fixed[CTR_KERNEL_INSNS].total += n;
	if (!counting_region())
		return false;
	fixed[CTR_KERNEL_INSNS].region += n;
	return true;
}

static void tb_exec(unsigned int vcpu_index, void *udata)
{
	uint64_t info = (uintptr_t)udata;
	uint64_t f = info >> TB_FUNC_SHIFT;

	(void)vcpu_index;
	if (tb_start(info) && f)
		funcs[f - 1].region += info & TB_NINSNS;
}

static void tb_exec_runs(unsigned int vcpu_index, void *udata)
{
	const struct tb_runs *r = udata;

	(void)vcpu_index;
	if (!tb_start(r->info))
		return;
	for (size_t i = 0; i < r->nruns; i++)
		r->run[i].func->region += r->run[i].ninsns;
}

static void sym_exec(unsigned int vcpu_index, void *udata)
{
	struct sym *s = udata;

	(void)vcpu_index;
	if (s->kind == SYM_MARK)
		write_snapshot(s->name);
	else
		bump(&s->calls);
}

static void indirect_exec(unsigned int vcpu_index, void *udata)
{
	(void)vcpu_index;
	bump(&fixed[(uintptr_t)udata]);
}

/* The region call itself, in the caller's task context: the region opens
 * once it has executed.
 */
static void enter_exec(unsigned int vcpu_index, void *udata)
{
	(void)vcpu_index;
	(void)udata;
	irq_depth = 0;
	in_region = true;
	fixed[CTR_PACKETS].total++;
	fixed[CTR_PACKETS].region++;
}

static void iret_exec(unsigned int vcpu_index, void *udata)
{
	(void)vcpu_index;
	(void)udata;
	fixed[CTR_IRETS].total++;
	if (irq_depth)
		irq_depth--;
}

static void insn_trans(struct qemu_plugin_insn *insn)
{
	uint64_t va = qemu_plugin_insn_vaddr(insn);
	const uint8_t *p = qemu_plugin_insn_data(insn);
	size_t len = qemu_plugin_insn_size(insn);
	struct sym *s = sym_at(va);
	int kind;

	if (s && (s->kind == SYM_COUNT || s->kind == SYM_THUNK || s->kind == SYM_MARK))
		qemu_plugin_register_vcpu_insn_exec_cb(insn, sym_exec,
						       QEMU_PLUGIN_CB_NO_REGS, s);
	if (s && s->kind == SYM_SITE) {
		/* A wrong length would leave the region open for good. */
		if (s->size != len) {
			fprintf(stderr, "pktcount: site %s: the instruction at %" PRIx64
				" is %zu bytes long, not %" PRIu64 "\n",
				s->name, va, len, s->size);
			exit(1);
		}
		qemu_plugin_register_vcpu_insn_exec_cb(insn, enter_exec,
						       QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
	kind = indirect_kind(p, len);
	if (kind && !sym_containing(va, SYM_THUNK))
		qemu_plugin_register_vcpu_insn_exec_cb(insn, indirect_exec,
						       QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)kind);
	if (is_iretq(p, len))
		qemu_plugin_register_vcpu_insn_exec_cb(insn, iret_exec,
						       QEMU_PLUGIN_CB_NO_REGS, NULL);
}

/* The block's callback with its functions: the index of the one function
 * that holds it in INFO, else a list of runs.  A list is never freed: the
 * API does not say when a block is gone, and blocks that span functions
 * are few.
 */
static void register_func_runs(struct qemu_plugin_tb *tb, size_t n, uint64_t info)
{
	struct func *f = NULL;
	struct tb_runs *r;
	size_t nruns = 0;

	for (size_t i = 0; i < n; i++) {
		struct func *g = func_of(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i)));

		nruns += g != f;
		f = g;
	}
	if (nruns == 1) {
		info |= (uint64_t)(f - funcs + 1) << TB_FUNC_SHIFT;
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)info);
		return;
	}
	r = malloc(sizeof(*r) + nruns * sizeof(r->run[0]));
	if (!r) {
		fprintf(stderr, "pktcount: out of memory\n");
		exit(1);
	}
	r->info = info;
	r->nruns = 0;
	f = NULL;
	for (size_t i = 0; i < n; i++) {
		struct func *g = func_of(qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i)));

		if (g != f) {
			r->run[r->nruns].func = g;
			r->run[r->nruns++].ninsns = 0;
		}
		r->run[r->nruns - 1].ninsns++;
		f = g;
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_runs, QEMU_PLUGIN_CB_NO_REGS, r);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t start = qemu_plugin_tb_vaddr(tb);
	uint64_t info = n;
	struct sym *s;

	(void)id;
	if (!is_kernel(start))
		return;
	s = sym_at(start);
	if (s && s->kind == SYM_IRQ)
		info |= TB_IRQ;
	if (is_leave_addr(start))
		info |= TB_LEAVE;
	if (funcs)
		register_func_runs(tb, n, info);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)info);
	for (size_t i = 0; i < n; i++)
		insn_trans(qemu_plugin_tb_get_insn(tb, i));
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	write_snapshot("exit");
	fclose(out);
}

static int parse_kind(const char *s, enum sym_kind *kind)
{
	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++) {
		if (!strcmp(s, kind_names[i])) {
			*kind = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Read the list file PATH: PARSE on each line that is neither a comment
 * nor empty, up to the first error.  0 or -errno.
 */
static int read_list(const char *path, int (*parse)(const char *line, const char *path, size_t lineno))
{
	char line[1024];
	size_t lineno = 0;
	int ret = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		int err = errno;

		fprintf(stderr, "pktcount: %s: %s\n", path, strerror(err));
		return -err;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "pktcount: %s:%zu: line too long\n", path, lineno);
			ret = -EINVAL;
		} else if (line[0] != '#' && line[0] != '\n') {
			ret = parse(line, path, lineno);
		}
	}
	fclose(f);
	return ret;
}

/* ARR (capacity *CAP elements of SIZE bytes) with room for NEED: ARR, or
 * a new array, or NULL when out of memory.
 */
static void *grow(void *arr, size_t *cap, size_t need, size_t size)
{
	void *n;

	if (need <= *cap)
		return arr;
	n = realloc(arr, 2 * need * size);
	if (n)
		*cap = 2 * need;
	return n;
}

/* syms=PATH: "KIND ADDRESS SIZE NAME" */
static int parse_sym(const char *line, const char *path, size_t lineno)
{
	static size_t cap;
	struct sym s = { 0 }, *n;
	char kind[16];

	if (sscanf(line, "%15s %" SCNx64 " %" SCNx64 " %127s", kind,
		   &s.addr, &s.size, s.name) != 4 ||
	    parse_kind(kind, &s.kind) < 0 ||
	    strlen(s.name) == sizeof(s.name) - 1) {
		fprintf(stderr, "pktcount: %s:%zu: expected KIND ADDR SIZE NAME (name < 127 bytes)\n",
			path, lineno);
		return -EINVAL;
	}
	n = grow(syms, &cap, nsyms + 1, sizeof(*syms));
	if (!n)
		return -ENOMEM;
	syms = n;
	syms[nsyms++] = s;
	return 0;
}

/* The symbols of syms=PATH, read: sorted, each at an address of its own. */
static int sort_syms(void)
{
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
	for (size_t i = 1; i < nsyms; i++) {
		if (syms[i].addr == syms[i - 1].addr) {
			fprintf(stderr, "pktcount: %s and %s share address %" PRIx64 "\n",
				syms[i - 1].name, syms[i].name, syms[i].addr);
			return -EINVAL;
		}
	}
	return 0;
}

static int func_cmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* funcs=PATH: "ADDRESS SIZE NAME"; the array keeps room for "(none)". */
static int parse_func(const char *line, const char *path, size_t lineno)
{
	static size_t cap;
	struct func *fn = grow(funcs, &cap, nfuncs + 2, sizeof(*funcs));
	char name[512];

	if (!fn)
		return -ENOMEM;
	funcs = fn;
	fn = &funcs[nfuncs];
	*fn = (struct func){ 0 };
	if (sscanf(line, "%" SCNx64 " %" SCNx64 " %511s", &fn->addr, &fn->size, name) != 3 ||
	    !fn->size || fn->addr + fn->size < fn->addr) {
		fprintf(stderr, "pktcount: %s:%zu: expected ADDR SIZE NAME (hex, size > 0)\n",
			path, lineno);
		return -EINVAL;
	}
	fn->name = strdup(name);
	if (!fn->name)
		return -ENOMEM;
	nfuncs++;
	return 0;
}

/* The functions of funcs=PATH, read: sorted, not overlapping, then
 * "(none)".
 */
static int sort_funcs(const char *path)
{
	if (!nfuncs || nfuncs >= TB_FUNC_MAX) {
		fprintf(stderr, "pktcount: %s: %zu functions\n", path, nfuncs);
		return -EINVAL;
	}
	qsort(funcs, nfuncs, sizeof(*funcs), func_cmp);
	for (size_t i = 1; i < nfuncs; i++) {
		if (funcs[i].addr - funcs[i - 1].addr < funcs[i - 1].size) {
			fprintf(stderr, "pktcount: functions %s and %s overlap\n",
				funcs[i - 1].name, funcs[i].name);
			return -EINVAL;
		}
	}
	funcs[nfuncs] = (struct func){ .name = "(none)" };
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *sympath = NULL, *outpath = NULL, *funcpath = NULL;

	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "syms=", 5)) {
			sympath = argv[i] + 5;
		} else if (!strncmp(argv[i], "out=", 4)) {
			outpath = argv[i] + 4;
		} else if (!strncmp(argv[i], "funcs=", 6)) {
			funcpath = argv[i] + 6;
		} else {
			fprintf(stderr, "pktcount: unknown argument '%s' (syms=PATH, out=PATH, funcs=PATH)\n",
				argv[i]);
			return -1;
		}
	}
	if (!sympath || !outpath) {
		fprintf(stderr, "pktcount: needs syms=PATH and out=PATH\n");
		return -1;
	}
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "pktcount: x86_64 system emulation only (got %s)\n",
			info->target_name);
		return -1;
	}
	if (info->system.max_vcpus > 1) {
		fprintf(stderr, "pktcount: %d vCPUs: the counters are exact with one only\n",
			info->system.max_vcpus);
		return -1;
	}
	if (read_list(sympath, parse_sym) < 0 || sort_syms() < 0)
		return -1;
	if (funcpath && (read_list(funcpath, parse_func) < 0 || sort_funcs(funcpath) < 0))
		return -1;
	out = fopen(outpath, "w");
	if (!out) {
		fprintf(stderr, "pktcount: %s: %s\n", outpath, strerror(errno));
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
