// SPDX-License-Identifier: GPL-2.0
/* Ask the kernel which element holds a key (element get, overlap reports). */
#include <errno.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>
#include <libnftnl/set.h>

#include "elem.h"
#include "elem_lookup.h"

struct get_result {
	const struct setinfo *si;
	uint8_t key[KT_MAX_KEY];
	uint8_t key_end[KT_MAX_KEY];
	int found, has_end;
};

static int get_take_elem(struct nftnl_set_elem *e, void *data)
{
	struct get_result *g = data;
	const void *key, *key_end = NULL;
	uint32_t len = 0, len_end = 0;

	key = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY, &len);
	if (g->found || !key || len != g->si->kt.key_len)
		return 0;
	if (nftnl_set_elem_is_set(e, NFTNL_SET_ELEM_KEY_END))
		key_end = nftnl_set_elem_get(e, NFTNL_SET_ELEM_KEY_END, &len_end);
	memcpy(g->key, key, len);
	if (key_end && len_end == len) {
		memcpy(g->key_end, key_end, len);
		g->has_end = 1;
	}
	g->found = 1;
	return 0;
}

static int get_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_elems_nlmsg_parse(nlh, s) >= 0)
		nftnl_set_elem_foreach(s, get_take_elem, data);
	nftnl_set_free(s);
	return 0;
}

static int elem_get_req(struct nl *nl, const struct setinfo *si,
			const uint8_t *key, const uint8_t *key_end,
			uint32_t flags, struct get_result *g, struct nl_err *ne)
{
	char buf[16384] = { 0 };
	struct nftnl_set_elem *e;
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	e = nftnl_set_elem_alloc();
	if (!e)
		return -ENOMEM;
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETSETELEM, si->family,
				    NLM_F_ACK, nl->seq++);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_TABLE, si->table);
	mnl_attr_put_strz(nlh, NFTA_SET_ELEM_LIST_SET, si->name);
	nest = mnl_attr_nest_start(nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, si->kt.key_len);
	if (key_end)
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, key_end,
				   si->kt.key_len);
	if (flags)
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_FLAGS, flags);
	nftnl_set_elem_nlmsg_build(nlh, e, NFTA_LIST_ELEM);
	mnl_attr_nest_end(nlh, nest);
	nftnl_set_elem_free(e);
	memset(g, 0, sizeof(*g));
	g->si = si;
	return nl_talk(nl, nlh, get_cb, g, buf, sizeof(buf), ne);
}

/*
 * The element of si that holds key (for concatenated ranges, the queried
 * [key, key_end]; for single-field interval sets, all of [key, key_end],
 * as nft 1.0.6 answers: a range inside one element gives that element, a
 * range across elements or gaps none): start and end of its range, end =
 * start for a single value.  A single-field interval set answers with the
 * range's start element; a second lookup of (start + 1) flagged
 * NFT_SET_ELEM_INTERVAL_END returns the end element (end + 1), to get the
 * whole range (nft 1.0.6 dumps the set instead).  0, -ENOENT or another
 * negative errno.
 */
int elem_lookup(struct nl *nl, const struct setinfo *si, const uint8_t *key,
		const uint8_t *key_end, uint8_t *start, uint8_t *end,
		struct nl_err *ne)
{
	uint32_t len = si->kt.key_len;
	struct get_result g, e;
	int err;

	err = elem_get_req(nl, si, key, setinfo_is_concat_interval(si) ?
			   key_end : NULL, 0, &g, ne);
	if (!err && !g.found)
		err = -ENOENT;
	if (err)
		return err;
	memcpy(start, g.key, len);
	memcpy(end, g.has_end ? g.key_end : g.key, len);
	if (setinfo_is_single_interval(si)) {
		/*
		 * The range's end element holds end + 1; none: up to the top.
		 * Ask for the first end element at or above start + 1, not at
		 * start itself: rbtree start elements carry no flags
		 * extension, so older kernels (6.12) match a start element
		 * with the queried key whatever INTERVAL_END says, and the
		 * answer would be the start again.  Any element keyed start +
		 * 1 marks the end of this range (its end element, or the start
		 * of an adjacent range), so both kernels agree.  Not the end
		 * element above key_end: for a range across elements that is
		 * the end of another element.
		 */
		uint8_t next[KT_MAX_KEY];

		memset(end, 0xff, len);
		if (!elem_key_inc(&si->kt, start, next) &&
		    !elem_get_req(nl, si, next, NULL,
				  NFT_SET_ELEM_INTERVAL_END, &e, ne) &&
		    e.found && elem_key_dec(&si->kt, e.key, end))
			memcpy(end, start, len);
		memset(ne, 0, sizeof(*ne));
		if (memcmp(key_end, end, len) > 0)
			return -ENOENT;	/* beyond the element holding key */
	}
	return 0;
}
