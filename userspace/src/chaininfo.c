// SPDX-License-Identifier: GPL-2.0
/* One chain from the kernel: does it exist, is it a base chain. */
#include <errno.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>

#include "chaininfo.h"

struct chaininfo_parse {
	int found, is_base;
};

static int chaininfo_cb(const struct nlmsghdr *nlh, void *data)
{
	struct chaininfo_parse *p = data;
	struct nftnl_chain *ch = nftnl_chain_alloc();

	if (!ch)
		return -ENOMEM;
	if (nftnl_chain_nlmsg_parse(nlh, ch) >= 0) {
		p->found = 1;
		p->is_base = nftnl_chain_is_set(ch, NFTNL_CHAIN_HOOKNUM);
	}
	nftnl_chain_free(ch);
	return 0;
}

int chaininfo_get(struct nl *nl, uint16_t family, const char *table,
		  const char *name, int *is_base, struct nl_err *e)
{
	char buf[16384] = { 0 };
	struct chaininfo_parse p = { 0 };
	struct nftnl_chain *ch = nftnl_chain_alloc();
	struct nlmsghdr *nlh;
	int err;

	if (!ch)
		return -ENOMEM;
	nftnl_chain_set_str(ch, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(ch, NFTNL_CHAIN_NAME, name);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETCHAIN, family, NLM_F_ACK,
				    nl->seq++);
	nftnl_chain_nlmsg_build_payload(nlh, ch);
	nftnl_chain_free(ch);
	err = nl_talk(nl, nlh, chaininfo_cb, &p, buf, sizeof(buf), e);
	if (err)
		return err;
	if (!p.found)
		return -ENOENT;
	*is_base = p.is_base;
	return 0;
}
