// SPDX-License-Identifier: GPL-2.0
/*
 * counter add|del FAMILY TABLE NAME: named counter objects (nft's "counter"
 * objects; the counters command, every counter's values, is cmd_counters.c).
 */
#include <errno.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/object.h>

#include "cmd.h"

int cmd_counter(struct ctx *c, int argc, char **argv)
{
	struct nftnl_obj *o;
	struct nlmsghdr *nlh;
	uint16_t family, type, flags = 0;
	struct txn own, *t;
	int err;

	if (argc != 4)
		return cmd_usage(c);
	if (!strcmp(argv[0], "add")) {
		type = NFT_MSG_NEWOBJ;
		flags = NLM_F_CREATE;
	} else if (!strcmp(argv[0], "del")) {
		type = NFT_MSG_DELOBJ;
	} else {
		return cmd_usage(c);
	}
	err = cmd_family(c, argv[1], &family);
	if (!err)
		err = cmd_name(c, "table", argv[2]);
	if (!err)
		err = cmd_name(c, "counter", argv[3]);
	if (err)
		return err;
	o = nftnl_obj_alloc();
	if (!o)
		return -ENOMEM;
	nftnl_obj_set_str(o, NFTNL_OBJ_TABLE, argv[2]);
	nftnl_obj_set_str(o, NFTNL_OBJ_NAME, argv[3]);
	nftnl_obj_set_u32(o, NFTNL_OBJ_TYPE, NFT_OBJECT_COUNTER);
	if (type == NFT_MSG_NEWOBJ) {
		nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_PKTS, 0);
		nftnl_obj_set_u64(o, NFTNL_OBJ_CTR_BYTES, 0);
	}
	err = cmd_txn_begin(c, &own, &t);
	if (err) {
		nftnl_obj_free(o);
		return err;
	}
	nlh = txn_msg_begin(t, type, family, flags);
	nftnl_obj_nlmsg_build_payload(nlh, o);
	nftnl_obj_free(o);
	err = txn_msg_end(t);
	if (err) {
		cmd_txn_abort(c, t);
		return cmd_fail(c, argv[3], err);
	}
	return cmd_commit(c, t);
}
