// SPDX-License-Identifier: GPL-2.0
/* The command table: dispatch and per-command help. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct cmd_desc cmds[] = {
	{ "table", cmd_table, 1, 1,
	  "table add|del FAMILY TABLE\n", "" },
	{ "chain", cmd_chain, 1, 1,
	  "chain add FAMILY TABLE CHAIN [--hook HOOK --priority PRIO [--dev DEV]\n"
	  "          [--type filter|route|nat] [--policy accept|drop]]\n"
	  "chain del FAMILY TABLE CHAIN\n",
	  "  --hook HOOK      prerouting input forward output postrouting;\n"
	  "                   ingress, egress (netdev), ingress (inet)\n"
	  "  --priority PRIO  a number, or NAME [+|- N] as in nft: raw mangle\n"
	  "                   dstnat (prerouting) filter security srcnat\n"
	  "                   (postrouting); bridge: dstnat filter out (output)\n"
	  "                   srcnat; arp, netdev: filter ('filter + 10')\n"
	  "  --dev DEV        netdev chains: the device (at most 15 bytes)\n"
	  "  --type TYPE      filter (default); route: ip, ip6 output;\n"
	  "                   nat: ip, ip6, inet\n" },
	{ "set", cmd_set, 1, 1,
	  "set add FAMILY TABLE SET --type 'ipv4_addr . inet_service'\n"
	  "          [--flags interval,timeout,constant,dynamic] [--timeout TIME]\n"
	  "          [--size N] [--counter] [--policy performance|memory]\n"
	  "          [--auto-merge]\n"
	  "set flush|del FAMILY TABLE SET\n"
	  "set sync FAMILY TABLE SET --file FILE|- [--dry-run] [--retries N]\n",
	  "  --type SPEC      1-5 fields joined by ' . ': ipv4_addr ipv6_addr\n"
	  "                   ether_addr inet_proto inet_service mark (key <= 64 bytes)\n"
	  "  --auto-merge     as nft's auto-merge (single-field interval sets):\n"
	  "                   element add merges touching and overlapping\n"
	  "                   intervals with each other and the set's\n"
	  "  sync             make the set's elements those of FILE (one per\n"
	  "                   line, as element add --file) in one transaction:\n"
	  "                   missing ones added, extra ones deleted, timeouts\n"
	  "                   of those that stay renewed; exit status 0: the\n"
	  "                   set was equal, 3: it was changed\n"
	  "  --dry-run        sync: print the difference ('+ ELEMENT' to add,\n"
	  "                   '- ELEMENT' to delete), send nothing\n"
	  "  --retries N      sync: attempts again after another process changed\n"
	  "                   the ruleset meanwhile (default 3, 0-100)\n" },
	{ "map", cmd_set, 1, 1,
	  "map add FAMILY TABLE MAP --type 'ipv4_addr . inet_service'\n"
	  "          --data verdict|TYPE [set add options]\n"
	  "map flush|del FAMILY TABLE MAP\n"
	  "map sync FAMILY TABLE MAP --file FILE|- [--dry-run] [--retries N]\n",
	  "  --data TYPE      verdict (a verdict map), or one of ipv4_addr\n"
	  "                   ipv6_addr ether_addr inet_proto inet_service mark\n"
	  "  elements are 'KEY : DATA', e.g. '10.0.0.1 : jump other',\n"
	  "  '10.0.0.1-10.0.0.9 . 80 : 0x10'; element add|del|get work on maps\n" },
	{ "element", cmd_element, 1, 1,
	  "element add|create|del FAMILY TABLE SET [ELEMENT]... [--file FILE|-]\n"
	  "          [--gen FIELDS --count N [--start N] [--range-size N] [--proto P]]\n"
	  "element get FAMILY TABLE SET ELEMENT...\n"
	  "element list FAMILY TABLE SET [--json]\n",
	  "  add              as nft's add element: elements already in the\n"
	  "                   set (with the same data) are no error\n"
	  "  create           as nft's create element: an element already in\n"
	  "                   the set, or given twice, is an error (EEXIST)\n"
	  "  ELEMENT          nft syntax: '10.0.0.1-10.0.0.5 . 80-90 timeout 30s';\n"
	  "                   after '--' every word is an element; nft lists\n"
	  "                   too: '{ 10.0.0.1, 10.0.0.2, }'\n"
	  "  --file FILE      one element per line ('#' comments, trailing ','),\n"
	  "                   '-' is standard input\n"
	  "  --gen FIELDS     generate: addr4 addr6 port proto mac joined by ' . '\n"
	  "  --count N        number of generated elements (with --gen)\n"
	  "  --start N        first value (with --gen, default 1)\n"
	  "  --range-size N   ranges of N + 1 values (with --gen, default 0)\n"
	  "  --proto P        protocol of proto fields (with --gen, default udp)\n"
	  "  list             print every element as it arrives from the kernel,\n"
	  "                   one per line ('KEY [timeout T] [: DATA]') or as JSON\n" },
	{ "rule", cmd_rule, 1, 1,
	  "rule add FAMILY TABLE CHAIN [--set SET|--vmap MAP|--map MAP [--lookups N]\n"
	  "          [--match FIELDS]]\n"
	  "          [--counter]\n"
	  "          [--verdict accept|drop|continue|return|jump:CHAIN|goto:CHAIN]\n",
	  "  --vmap MAP       look the packet up in a verdict map (ip daddr vmap @MAP)\n"
	  "  --map MAP        meta mark set KEY map @MAP (a map with --data mark)\n"
	  "  --match FIELDS   the packet fields per key field, as nft writes\n"
	  "                   them: 'saddr . sport' (saddr|daddr, sport|dport,\n"
	  "                   l4proto, mark; default daddr . dport)\n"
	  "  --lookups N      look SET up N times (default 1); the limit is the\n"
	  "                   kernel's: 128 expressions and < 4096 bytes per rule\n" },
	{ "counter", cmd_counter, 1, 1,
	  "counter add|del FAMILY TABLE NAME\n", "" },
	{ "list", cmd_list, 1, 0,
	  "list ruleset [FAMILY] [--json]\n"
	  "list table FAMILY TABLE [--json]\n"
	  "list chain FAMILY TABLE CHAIN [--json]\n"
	  "list set|map FAMILY TABLE NAME [--json]\n",
	  "  print what nft list (nft -j list with --json) prints for the same\n"
	  "  objects; anything nftlab does not create is refused, naming it\n"
	  "  --json           nft -j's schema\n" },
	{ "counters", cmd_counters, 0, 0,
	  "counters [FAMILY [TABLE]]\n",
	  "  all counters as one JSON object: rules, counters, elements\n" },
	{ "ruleset", cmd_ruleset, 1, 1,
	  "ruleset flush [FAMILY]\n", "" },
	{ "gen", cmd_gen, 0, 0,
	  "gen FIELDS --count N [--start N] [--range-size N] [--proto P]\n",
	  "  print generated elements, one per line (see element --help)\n" },
};

const struct cmd_desc *cmd_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

void cmd_print_help(const struct cmd_desc *d)
{
	const char *u = d->usage;

	fputs("Usage:\n", stdout);
	while (*u) {
		size_t n = strcspn(u, "\n");

		printf("  %s%.*s\n", *u == ' ' ? "      " : "nftlab ", (int)n, u);
		u += n + (u[n] ? 1 : 0);
	}
	if (*d->help)
		printf("\n%s", d->help);
}

/* "--help" anywhere before "--" */
int cmd_wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/*
 * Run OBJECT [VERB] ARGS... in c.  where ("FILE:LINE: ") prefixes the op
 * text.  Returns 0, a negative errno, or 1 after printing help.
 */
int cmd_run(struct ctx *c, int argc, char **argv, const char *where,
	    char *opbuf, size_t oplen)
{
	const struct cmd_desc *d = cmd_find(argv[0]);
	struct qbuf q;

	c->object = argv[0];
	c->where = where;
	c->argc = argc;
	c->argv = argv;
	if (!d) {
		snprintf(opbuf, oplen, "%s", where);
		c->op = opbuf;
		fprintf(stderr, "nftlab: %sunknown object '%s' (nftlab --help)\n",
			where, quote(&q, argv[0]));
		c->refused = 1;
		return -EINVAL;
	}
	c->object = d->name;
	if (cmd_wants_help(argc - 1, argv + 1) && !c->script) {
		cmd_print_help(d);
		return 1;
	}
	snprintf(opbuf, oplen, "%s%s%s%s", where, d->name,
		 d->has_verb && argc > 1 ? " " : "",
		 d->has_verb && argc > 1 ? quote(&q, argv[1]) : "");
	c->op = opbuf;
	if (c->script && !d->in_script) {
		fprintf(stderr, "nftlab: %s: not allowed in a script (it does "
			"not change the ruleset)\n", c->op);
		c->refused = 1;
		return -EINVAL;
	}
	if (d->has_verb && argc < 2) {
		fprintf(stderr, "nftlab: %s: missing verb (nftlab %s --help)\n",
			c->op, d->name);
		c->refused = 1;
		return -EINVAL;
	}
	return d->fn(c, argc - 1, argv + 1);
}
