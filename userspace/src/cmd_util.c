// SPDX-License-Identifier: GPL-2.0
/* Small helpers shared by the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int cmd_usage(const struct ctx *c, const char *usage)
{
	fprintf(stderr, "nftlab: %s: usage: nftlab %s\n", c->op, usage);
	return -EINVAL;
}

int cmd_fail(const struct ctx *c, const char *what, int err)
{
	fprintf(stderr, "nftlab: %s: %s: %s\n", c->op, what, strerror(-err));
	return err;
}

int cmd_family(const struct ctx *c, const char *name, uint16_t *family)
{
	if (nl_family_parse(name, family)) {
		fprintf(stderr, "nftlab: %s: unknown family '%s' "
			"(ip, ip6, inet, arp, bridge, netdev)\n", c->op, name);
		return -EINVAL;
	}
	return 0;
}

int cmd_u64(const struct ctx *c, const char *opt, const char *s,
	    uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v > max) {
		fprintf(stderr, "nftlab: %s: %s: bad number '%s'\n", c->op,
			opt, s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cmd_txn_begin(struct ctx *c, struct txn *t)
{
	int err = txn_init(t, &c->nl, c->max_batch);

	if (err)
		return cmd_fail(c, "transaction", err);
	return 0;
}

/* Commit with the default reporter (no element decoding) and free. */
int cmd_commit(struct ctx *c, struct txn *t)
{
	struct txn_reporter rep = { .op = c->op, .max_reports = 10 };
	int err = txn_commit(t, &c->nl, &rep);

	if (c->stats)
		txn_print_stats(t, c->op, 0);
	txn_fini(t);
	return err;
}
