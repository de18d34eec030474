// SPDX-License-Identifier: GPL-2.0
/* nftlab: build and load nf_tables lab rulesets through libnftnl. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define NFTLAB_VERSION "0.1"

static const char help[] =
"Usage: nftlab [--max-batch BYTES] [--stats] OBJECT VERB ARGS...\n"
"\n"
"Each command is one nf_tables transaction: it is applied completely or\n"
"not at all.  FAMILY is ip, ip6, inet, arp, bridge or netdev.\n"
"\n"
"  table add|del FAMILY TABLE\n"
"  chain add FAMILY TABLE CHAIN [--hook HOOK --priority PRIO [--dev DEV]\n"
"            [--type filter|route|nat] [--policy accept|drop]]\n"
"  chain del FAMILY TABLE CHAIN\n"
"  set add FAMILY TABLE SET --type 'ipv4_addr . inet_service'\n"
"            [--flags interval,timeout,constant,dynamic] [--timeout TIME]\n"
"            [--size N] [--counter] [--policy performance|memory]\n"
"  set flush|del FAMILY TABLE SET\n"
"  element add|del FAMILY TABLE SET [ELEMENT]... [--file FILE|-]\n"
"            [--gen FIELDS --count N [--start N] [--range-size N] [--proto P]]\n"
"  element get FAMILY TABLE SET ELEMENT...\n"
"  rule add FAMILY TABLE CHAIN [--set SET [--lookups N]] [--counter]\n"
"            [--verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN]\n"
"  counter add|del FAMILY TABLE NAME\n"
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
"  --max-batch BYTES  refuse transactions larger than this (default 1G)\n"
"  --stats            print size and timing of the transaction to stderr\n"
"                     (kernel = the sendmsg() that runs and commits it)\n"
"  --help, --version\n"
"\n"
"Exit status: 0 success, 1 failure (the ruleset is then unchanged),\n"
"2 bad global options or unknown object.\n";

typedef int (*cmd_fn)(struct ctx *c, int argc, char **argv);

static const struct {
	const char *name;
	cmd_fn fn;
	int has_verb;
} cmds[] = {
	{ "table", cmd_table, 1 }, { "chain", cmd_chain, 1 },
	{ "set", cmd_set, 1 }, { "element", cmd_element, 1 },
	{ "rule", cmd_rule, 1 }, { "counter", cmd_counter, 1 },
	{ "counters", cmd_counters, 0 }, { "ruleset", cmd_ruleset, 1 },
	{ "gen", cmd_gen, 0 },
};

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end || !v)
		return -EINVAL;
	*out = (size_t)v;
	return 0;
}

int main(int argc, char **argv)
{
	struct ctx c = { .max_batch = 1UL << 30 };
	char op[64];
	int i = 1, err;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(help, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("nftlab %s\n", NFTLAB_VERSION);
			return 0;
		} else if (!strcmp(argv[i], "--stats")) {
			c.stats = 1;
			i++;
		} else if (!strcmp(argv[i], "--max-batch") && i + 1 < argc) {
			if (parse_size(argv[i + 1], &c.max_batch)) {
				fprintf(stderr, "nftlab: bad --max-batch '%s'\n",
					argv[i + 1]);
				return 2;
			}
			i += 2;
		} else {
			fprintf(stderr, "nftlab: unknown option '%s'\n%s", argv[i],
				help);
			return 2;
		}
	}
	if (i == argc) {
		fputs(help, stderr);
		return 2;
	}
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		int sub = i + (cmds[k].has_verb ? 1 : 0);

		if (strcmp(cmds[k].name, argv[i]))
			continue;
		if (cmds[k].has_verb && sub >= argc) {
			fprintf(stderr, "nftlab: %s: missing verb\n", argv[i]);
			return 2;
		}
		snprintf(op, sizeof(op), "%s%s%s", argv[i],
			 cmds[k].has_verb ? " " : "",
			 cmds[k].has_verb ? argv[sub] : "");
		c.op = op;
		if (cmds[k].fn != cmd_gen) {
			err = nl_open(&c.nl);
			if (err) {
				fprintf(stderr, "nftlab: %s: netlink socket: %s\n",
					op, strerror(-err));
				return 1;
			}
		}
		err = cmds[k].fn(&c, argc - (cmds[k].has_verb ? sub : i + 1),
				 argv + (cmds[k].has_verb ? sub : i + 1));
		nl_close(&c.nl);
		if (fflush(stdout) && !err)
			err = -EIO;
		return err ? 1 : 0;
	}
	fprintf(stderr, "nftlab: unknown object '%s' (try --help)\n", argv[i]);
	return 2;
}
