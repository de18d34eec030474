// SPDX-License-Identifier: GPL-2.0
/* nftlab: build and load nf_tables lab rulesets through libnftnl. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "linein.h"
#include "script.h"

static const char help[] =
"Usage: nftlab [-c] [--max-batch BYTES] [--stats] OBJECT VERB ARGS...\n"
"       nftlab [-c] [--max-batch BYTES] [--stats] -f FILE|-\n"
"       nftlab OBJECT [VERB] --help\n"
"\n"
"Each command is one nf_tables transaction: it is applied completely or\n"
"not at all.  -f runs a script of commands (one per line, shell-like\n"
"quoting, '#' comments) as ONE transaction.  FAMILY is ip, ip6, inet,\n"
"arp, bridge or netdev.\n"
"\n"
"  table add|del FAMILY TABLE\n"
"  chain add FAMILY TABLE CHAIN [--hook HOOK --priority PRIO [--dev DEV]\n"
"            [--type filter|route|nat] [--policy accept|drop]]\n"
"  chain del FAMILY TABLE CHAIN\n"
"  set add FAMILY TABLE SET --type 'ipv4_addr . inet_service'\n"
"            [--flags interval,timeout,constant,dynamic] [--timeout TIME]\n"
"            [--size N] [--counter] [--policy performance|memory]\n"
"            [--auto-merge]\n"
"  set flush|del FAMILY TABLE SET\n"
"  set|map sync FAMILY TABLE SET --file FILE|- [--dry-run] [--retries N]\n"
"            make the set's elements those of FILE, in one transaction\n"
"  map add FAMILY TABLE MAP --type SPEC --data verdict|TYPE [set options]\n"
"  map flush|del FAMILY TABLE MAP    elements: 'KEY : DATA'\n"
"  element add|create|del FAMILY TABLE SET [ELEMENT]... [--file FILE|-]\n"
"            [--gen FIELDS --count N [--start N] [--range-size N] [--proto P]]\n"
"  element get FAMILY TABLE SET ELEMENT...\n"
"  element list FAMILY TABLE SET [--json]   stream all elements\n"
"  rule add FAMILY TABLE CHAIN [--set SET|--vmap MAP|--map MAP [--lookups N]\n"
"            [--match 'saddr . sport']] [--counter]\n"
"            [--verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN]\n"
"  counter add|del FAMILY TABLE NAME\n"
"  list ruleset [FAMILY] [--json]     what nft list (nft -j list) prints\n"
"  list table FAMILY TABLE [--json]\n"
"  list chain FAMILY TABLE CHAIN [--json]\n"
"  list set|map FAMILY TABLE NAME [--json]\n"
"  counters [FAMILY [TABLE]]          all counters as JSON\n"
"  ruleset flush [FAMILY]\n"
"  gen FIELDS --count N [--start N] [--range-size N] [--proto P]\n"
"                                      print generated elements\n"
"\n"
"ELEMENT is nft syntax: '10.0.0.1-10.0.0.5 . 80-90 timeout 30s'; a file\n"
"holds one element per line ('#' comments, trailing ',' allowed).\n"
"Key types: ipv4_addr ipv6_addr ether_addr inet_proto inet_service mark.\n"
"Generator FIELDS (nft_concat_range.sh formats): addr4 addr6 port proto mac,\n"
"e.g. --gen 'addr4 . port' --start 1 --count 1000 --range-size 1.\n"
"\n"
"  -c, --check        check only (as nft -c): the batch is built and sent\n"
"                     without its end; the kernel checks every message and\n"
"                     aborts it, nothing is committed\n"
"  -f FILE            run the commands of FILE ('-': standard input) as\n"
"                     one transaction\n"
"  --max-batch BYTES  refuse transactions larger than this (k, M, G;\n"
"                     default 256M, at most 1G; nftlab's memory is about\n"
"                     the transaction's size)\n"
"  --stats            print size and timing of the transaction to stderr\n"
"                     (kernel = the sendmsg() that runs and commits it)\n"
"  --help, --version\n"
"\n"
"Exit status: 0 success; 1 the kernel refused or a system call failed\n"
"(the ruleset is unchanged); 2 the command line or input was refused,\n"
"nothing was sent; 3 (set sync only) the set differed from the file and\n"
"was changed (--dry-run: would be changed).\n";

/*
 * --max-batch: nftlab's peak memory is about the batch (built whole: a
 * transaction is one sendmsg()), and the kernel copies it into one skb.
 * The default bounds a runaway input (yes 10.0.0.1 | nftlab element add
 * ... --file - grew to 1 GB before the old default of 1G refused it) at
 * 256 MiB: 16M plain IPv4 elements, about 7M concatenated ranges.
 */
enum { MAX_BATCH_LIMIT = 1 << 30, MAX_BATCH_DEFAULT = 256 << 20 };

static int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end || !v)
		return -EINVAL;
	if (v > (unsigned long long)MAX_BATCH_LIMIT >> shift)
		return -ERANGE;
	*out = (size_t)(v << shift);
	return 0;
}

/* stdout after --help or --version: a write error is exit status 1 */
static int print_out(const char *text)
{
	fputs(text, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "nftlab: writing standard output: %s\n",
			strerror(errno));
		return -EIO;
	}
	return 1;
}

/* --stats, --max-batch and -f, each at most once. */
static int global_once(unsigned int *seen, unsigned int bit, const char *a)
{
	if (*seen & bit) {
		fprintf(stderr, "nftlab: %s given twice\n", a);
		return -EINVAL;
	}
	*seen |= bit;
	return 0;
}

static int global_arg(struct ctx *c, const char *a, const char *v,
		      const char **script)
{
	struct qbuf q;
	int err;

	if (a[1] == 'f') {
		*script = v;
		return 0;
	}
	err = parse_size(v, &c->max_batch);
	if (err)
		fprintf(stderr, "nftlab: bad --max-batch '%s': %s (1 to 1G "
			"bytes, suffixes k M G)\n", quote(&q, v),
			err == -ERANGE ? "too large" : "not a size");
	return err ? -EINVAL : 0;
}

static int global_opts(struct ctx *c, int argc, char **argv, int *i,
		       const char **script)
{
	char version[32];
	unsigned int seen = 0;
	struct qbuf q;
	int err = 0;

	while (!err && *i < argc && argv[*i][0] == '-') {
		const char *a = argv[*i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return print_out(help);
		if (!strcmp(a, "--version")) {
			snprintf(version, sizeof(version), "nftlab %s\n",
				 NFTLAB_VERSION);
			return print_out(version);
		}
		if (!strcmp(a, "--stats") || !strcmp(a, "-c") ||
		    !strcmp(a, "--check")) {
			err = global_once(&seen, a[2] == 's' ? 1 : 8, a);
			if (a[2] == 's')
				c->stats = 1;
			else
				c->check = 1;
			*i += 1;
			continue;
		}
		if (strcmp(a, "--max-batch") && strcmp(a, "-f")) {
			fprintf(stderr, "nftlab: unknown option '%s' (nftlab "
				"--help)\n", quote(&q, a));
			return -EINVAL;
		}
		if (*i + 1 >= argc) {
			fprintf(stderr, "nftlab: option '%s' needs an argument "
				"(nftlab --help)\n", a);
			return -EINVAL;
		}
		err = global_once(&seen, a[1] == 'f' ? 2 : 4, a);
		if (!err)
			err = global_arg(c, a, argv[*i + 1], script);
		*i += 2;
	}
	return err;
}

/*
 * Descriptors 0-2 closed at start would be taken by the netlink socket
 * (a script read from "standard input" would then read the socket and
 * hang): /dev/null holds them, and "-" as an input is refused.
 */
static void std_fds(struct ctx *c)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			continue;	/* a lower one was closed as well */
		if (fd == 0)
			c->stdin_used = LINEIN_STDIN_CLOSED;
	}
}

static int exit_status(const struct ctx *c, int err)
{
	if (!err)
		return EXIT_OK;
	return c->refused ? EXIT_INPUT : EXIT_KERNEL;
}

int main(int argc, char **argv)
{
	struct ctx c = { .max_batch = MAX_BATCH_DEFAULT, .op = "" };
	const char *script = NULL;
	char op[160];
	int i = 1, err;

	std_fds(&c);
	err = global_opts(&c, argc, argv, &i, &script);
	if (err)
		return err > 0 ? EXIT_OK : err == -EIO ? EXIT_KERNEL : EXIT_INPUT;
	if (script && i != argc) {
		fprintf(stderr, "nftlab: -f takes no command on the command "
			"line (nftlab --help)\n");
		return EXIT_INPUT;
	}
	if (!script && i == argc) {
		fprintf(stderr, "nftlab: no command (nftlab --help)\n");
		return EXIT_INPUT;
	}
	/* OBJECT ... --help prints help without a netlink socket */
	if (script || (strcmp(argv[i], "gen") &&
		       !cmd_wants_help(argc - i, argv + i))) {
		err = nl_open(&c.nl);
		if (err) {
			fprintf(stderr, "nftlab: netlink socket: %s\n",
				strerror(-err));
			return EXIT_KERNEL;
		}
	}
	if (script)
		err = script_run(&c, script);
	else {
		c.argv_base = i;
		err = cmd_run(&c, argc - i, argv + i, "", op, sizeof(op));
	}
	nl_close(&c.nl);
	elem_src_free(&c.srcmap);
	merge_reg_free(&c.merges);
	open_reg_free(&c.opens);
	setreg_free(&c.sets);
	setreg_free(&c.chains);
	setreg_free(&c.ivl_changed);
	if ((fflush(stdout) || ferror(stdout)) && err >= 0) {
		fprintf(stderr, "nftlab: writing standard output: %s\n",
			strerror(errno));
		err = -EIO;
		c.refused = 0;
	}
	if (err >= 0 && c.changed)
		return EXIT_CHANGED;
	return err > 0 ? EXIT_OK : exit_status(&c, err);
}
