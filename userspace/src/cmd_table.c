// SPDX-License-Identifier: GPL-2.0
/* table add|del FAMILY NAME */
#include <errno.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/table.h>

#include "cmd.h"

static int table_txn(struct ctx *c, uint16_t type, uint16_t flags,
		     uint16_t family, const char *name)
{
	struct nftnl_table *tb = nftnl_table_alloc();
	struct nlmsghdr *nlh;
	struct txn own, *t;
	int err;

	if (!tb)
		return -ENOMEM;
	nftnl_table_set_str(tb, NFTNL_TABLE_NAME, name);
	err = cmd_txn_begin(c, &own, &t);
	if (err) {
		nftnl_table_free(tb);
		return err;
	}
	nlh = txn_msg_begin(t, type, family, flags);
	nftnl_table_nlmsg_build_payload(nlh, tb);
	nftnl_table_free(tb);
	err = txn_msg_end(t);
	if (!err && type == NFT_MSG_DELTABLE)
		err = setreg_forget(&c->sets, family, name, NULL);
	if (!err && type == NFT_MSG_DELTABLE)
		err = setreg_forget(&c->chains, family, name, NULL);
	if (!err && type == NFT_MSG_DELTABLE) {
		merge_reg_forget(&c->merges, family, name, NULL);
		open_reg_forget(&c->opens, family, name, NULL);
		c->ivl_all_changed = !!c->script;
	}
	if (err) {
		cmd_txn_abort(c, t);
		return cmd_fail(c, name, err);
	}
	return cmd_commit(c, t);
}

int cmd_table(struct ctx *c, int argc, char **argv)
{
	uint16_t family;
	int err;

	if (argc != 3 || (strcmp(argv[0], "add") && strcmp(argv[0], "del")))
		return cmd_usage(c);
	err = cmd_family(c, argv[1], &family);
	if (!err)
		err = cmd_name(c, "table", argv[2]);
	if (err)
		return err;
	if (!strcmp(argv[0], "add"))
		return table_txn(c, NFT_MSG_NEWTABLE, NLM_F_CREATE, family,
				 argv[2]);
	return table_txn(c, NFT_MSG_DELTABLE, 0, family, argv[2]);
}
