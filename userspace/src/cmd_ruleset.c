// SPDX-License-Identifier: GPL-2.0
/* ruleset flush [FAMILY]: delete every table (of FAMILY). */
#include <errno.h>
#include <string.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>

#include "cmd.h"

int cmd_ruleset(struct ctx *c, int argc, char **argv)
{
	uint16_t family = NFPROTO_UNSPEC;
	struct txn own, *t;
	int err;

	if (argc < 1 || argc > 2 || strcmp(argv[0], "flush"))
		return cmd_usage(c);
	if (argc == 2) {
		err = cmd_family(c, argv[1], &family);
		if (err)
			return err;
	}
	err = cmd_txn_begin(c, &own, &t);
	if (err)
		return err;
	/* DELTABLE without a name flushes all tables of the family */
	txn_msg_begin(t, NFT_MSG_DELTABLE, family, 0);
	err = txn_msg_end(t);
	if (!err)
		err = setreg_forget(&c->sets, family, NULL, NULL);
	if (!err)
		err = setreg_forget(&c->chains, family, NULL, NULL);
	if (!err) {
		merge_reg_forget(&c->merges, family, NULL, NULL);
		open_reg_forget(&c->opens, family, NULL, NULL);
		c->ivl_all_changed = !!c->script;
	}
	if (err) {
		cmd_txn_abort(c, t);
		return cmd_fail(c, "ruleset", err);
	}
	return cmd_commit(c, t);
}
