// SPDX-License-Identifier: GPL-2.0
/* Fetch a set's key type and flags from the kernel (NFT_MSG_GETSET). */
#include <errno.h>
#include <stdlib.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include <libnftnl/set.h>

#include "setinfo.h"

struct setinfo_parse {
	struct setinfo *si;
	int err;
};

static int setinfo_cb(const struct nlmsghdr *nlh, void *data)
{
	struct setinfo_parse *p = data;
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_nlmsg_parse(nlh, s) < 0) {
		p->err = -EBADMSG;
	} else {
		p->si->flags = nftnl_set_get_u32(s, NFTNL_SET_FLAGS);
		p->err = keytype_from_id(&p->si->kt,
					 nftnl_set_get_u32(s, NFTNL_SET_KEY_TYPE),
					 nftnl_set_get_u32(s, NFTNL_SET_KEY_LEN));
		p->si->kt.interval = !!(p->si->flags & NFT_SET_INTERVAL);
	}
	nftnl_set_free(s);
	return 0;
}

/* -ENOENT etc. from the kernel land in e; -EOPNOTSUPP: unknown key type. */
int setinfo_get(struct nl *nl, struct setinfo *si, struct nl_err *e)
{
	char buf[16384] = { 0 };
	struct setinfo_parse p = { .si = si, .err = -ENOENT };
	struct nftnl_set *s = nftnl_set_alloc();
	struct nlmsghdr *nlh;
	int err;

	if (!s)
		return -ENOMEM;
	nftnl_set_set_str(s, NFTNL_SET_TABLE, si->table);
	nftnl_set_set_str(s, NFTNL_SET_NAME, si->name);
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSET, si->family, NLM_F_ACK,
				    nl->seq++);
	nftnl_set_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
	err = nl_talk(nl, nlh, setinfo_cb, &p, buf, sizeof(buf), e);
	return err ? err : p.err;
}

int setinfo_is_concat_interval(const struct setinfo *si)
{
	return (si->flags & NFT_SET_INTERVAL) && si->kt.nfields > 1;
}

int setinfo_is_single_interval(const struct setinfo *si)
{
	return (si->flags & NFT_SET_INTERVAL) && si->kt.nfields == 1;
}
