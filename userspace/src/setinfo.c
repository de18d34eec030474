// SPDX-License-Identifier: GPL-2.0
/* Fetch a set's key type and flags from the kernel (NFT_MSG_GETSET). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <libnftnl/common.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include "elem.h"
#include "setinfo.h"

struct setinfo_parse {
	struct setinfo *si;
	int err;
};

struct udata_parse {
	struct setinfo *si;
	const char *unknown;
};

/* nft's typeof record of a concatenation of types: expression 13, no data */
static int typeof_cb(const struct nftnl_udata *attr, void *data)
{
	int *plain = data;

	switch (nftnl_udata_type(attr)) {
	case NFTNL_UDATA_SET_TYPEOF_EXPR:
		if (nftnl_udata_len(attr) != 4 || nftnl_udata_get_u32(attr) != 13)
			*plain = 0;
		break;
	case NFTNL_UDATA_SET_TYPEOF_DATA:
		if (nftnl_udata_len(attr))
			*plain = 0;
		break;
	default:
		*plain = 0;
	}
	return 0;
}

/* The user data records nft 1.0.6 writes for a "type" declaration. */
static int udata_cb(const struct nftnl_udata *attr, void *data)
{
	struct udata_parse *u = data;
	uint8_t len = nftnl_udata_len(attr);

	switch (nftnl_udata_type(attr)) {
	case NFTNL_UDATA_SET_KEYBYTEORDER:
	case NFTNL_UDATA_SET_DATABYTEORDER:
		break;
	case NFTNL_UDATA_SET_MERGE_ELEMENTS:
		u->si->automerge = len == 4 && nftnl_udata_get_u32(attr);
		break;
	case NFTNL_UDATA_SET_DATA_INTERVAL:
		if (len != 4 || nftnl_udata_get_u32(attr))
			u->unknown = "an interval map data type";
		break;
	case NFTNL_UDATA_SET_KEY_TYPEOF: {
		int plain = 1;

		if (nftnl_udata_parse(nftnl_udata_get(attr), len, typeof_cb,
				      &plain) < 0 || !plain)
			u->unknown = "a typeof key declaration";
		break;
	}
	case NFTNL_UDATA_SET_COMMENT:
		u->unknown = "a set comment";
		break;
	default:
		u->unknown = "set user data nftlab does not know";
		break;
	}
	return 0;
}

/*
 * si from a set the kernel sent: flags, size, key and data types, and
 * from the user data auto-merge.  The user data nftlab does not read
 * (typeof, comments, ...) is named in *unknown, else NULL.
 */
int setinfo_from_set(struct setinfo *si, const struct nftnl_set *s,
		     const char **unknown)
{
	struct udata_parse u = { .si = si };
	const void *ud;
	uint32_t len = 0;
	int err;

	si->flags = nftnl_set_get_u32(s, NFTNL_SET_FLAGS);
	if (nftnl_set_is_set(s, NFTNL_SET_TIMEOUT))
		si->timeout_ms = nftnl_set_get_u64(s, NFTNL_SET_TIMEOUT);
	if (nftnl_set_is_set(s, NFTNL_SET_DESC_SIZE))
		si->size = nftnl_set_get_u32(s, NFTNL_SET_DESC_SIZE);
	err = keytype_from_id(&si->kt, nftnl_set_get_u32(s, NFTNL_SET_KEY_TYPE),
			      nftnl_set_get_u32(s, NFTNL_SET_KEY_LEN));
	si->kt.interval = !!(si->flags & NFT_SET_INTERVAL);
	if (!err && (si->flags & NFT_SET_MAP))
		err = keytype_set_data_id(&si->kt,
				nftnl_set_get_u32(s, NFTNL_SET_DATA_TYPE),
				nftnl_set_get_u32(s, NFTNL_SET_DATA_LEN));
	ud = nftnl_set_is_set(s, NFTNL_SET_USERDATA) ?
		nftnl_set_get_data(s, NFTNL_SET_USERDATA, &len) : NULL;
	if (ud && nftnl_udata_parse(ud, len, udata_cb, &u) < 0)
		u.unknown = "set user data nftlab cannot parse";
	if (unknown)
		*unknown = u.unknown;
	return err;
}

static int setinfo_cb(const struct nlmsghdr *nlh, void *data)
{
	struct setinfo_parse *p = data;
	struct nftnl_set *s = nftnl_set_alloc();

	if (!s)
		return -ENOMEM;
	if (nftnl_set_nlmsg_parse(nlh, s) < 0)
		p->err = -EBADMSG;
	else
		p->err = setinfo_from_set(p->si, s, NULL);
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

/* Text of an element attribute (NFTA_LIST_ELEM) of set si. */
struct elem_attrs {
	const struct nlattr *key, *key_end, *flags;
};

static int elem_attr_cb(const struct nlattr *attr, void *data)
{
	struct elem_attrs *a = data;

	switch (mnl_attr_get_type(attr)) {
	case NFTA_SET_ELEM_KEY: a->key = attr; break;
	case NFTA_SET_ELEM_KEY_END: a->key_end = attr; break;
	case NFTA_SET_ELEM_FLAGS: a->flags = attr; break;
	}
	return MNL_CB_OK;
}

static int data_value(const struct nlattr *nest, uint8_t *out, uint32_t len)
{
	const struct nlattr *attr;

	mnl_attr_for_each_nested(attr, nest) {
		if (mnl_attr_get_type(attr) == NFTA_DATA_VALUE &&
		    mnl_attr_get_payload_len(attr) == len) {
			memcpy(out, mnl_attr_get_payload(attr), len);
			return 0;
		}
	}
	return -EINVAL;
}

int elem_attr_format(const struct setinfo *si, const struct nlattr *elem,
		     char *buf, size_t len)
{
	struct elem_attrs a = { 0 };
	uint8_t key[KT_MAX_KEY], key_end[KT_MAX_KEY], prev[KT_MAX_KEY];
	int has_end;

	if (mnl_attr_parse_nested(elem, elem_attr_cb, &a) < 0 || !a.key ||
	    data_value(a.key, key, si->kt.key_len))
		return -EINVAL;
	has_end = a.key_end && !data_value(a.key_end, key_end, si->kt.key_len);
	if (a.flags && mnl_attr_get_payload_len(a.flags) == 4 &&
	    (ntohl(mnl_attr_get_u32(a.flags)) & NFT_SET_ELEM_INTERVAL_END) &&
	    !elem_key_dec(&si->kt, key, prev)) {
		size_t n;

		snprintf(buf, len, "end of interval ");
		n = strlen(buf);
		return elem_format(&si->kt, prev, NULL, buf + n, len - n);
	}
	return elem_format(&si->kt, key, has_end ? key_end : NULL, buf, len);
}


/*
 * The range an element attribute covers: [start, end]; an interval end
 * element (key end + 1) gives its last value in both.
 */
int elem_attr_range(const struct setinfo *si, const struct nlattr *elem,
		    uint8_t *start, uint8_t *end)
{
	struct elem_attrs a = { 0 };
	uint32_t len = si->kt.key_len;

	if (mnl_attr_parse_nested(elem, elem_attr_cb, &a) < 0 || !a.key ||
	    data_value(a.key, start, len))
		return -EINVAL;
	if (!a.key_end || data_value(a.key_end, end, len))
		memcpy(end, start, len);
	if (a.flags && mnl_attr_get_payload_len(a.flags) == 4 &&
	    (ntohl(mnl_attr_get_u32(a.flags)) & NFT_SET_ELEM_INTERVAL_END)) {
		if (elem_key_dec(&si->kt, start, end))
			return -EINVAL;
		memcpy(start, end, len);
	}
	return 0;
}

static int elem_attr_is_end(const struct nlattr *elem)
{
	struct elem_attrs a = { 0 };

	return mnl_attr_parse_nested(elem, elem_attr_cb, &a) >= 0 && a.flags &&
	       mnl_attr_get_payload_len(a.flags) == 4 &&
	       (ntohl(mnl_attr_get_u32(a.flags)) & NFT_SET_ELEM_INTERVAL_END);
}

/*
 * The interval of a single-field interval set that elem, a start or an
 * end element (end + 1) of request req, belongs to: the start and the end
 * element next to each other in the message, as elem_write() puts them.
 * Anything else: elem_attr_range().
 */
int elem_attr_interval(const struct setinfo *si, const struct nlmsghdr *req,
		       const struct nlattr *elem, uint8_t *start, uint8_t *end)
{
	const struct nlattr *attr, *nest = NULL, *prev = NULL, *next = NULL;
	uint8_t s2[KT_MAX_KEY];
	int is_end, found = 0;

	if (!req || !setinfo_is_single_interval(si))
		return elem_attr_range(si, elem, start, end);
	mnl_attr_for_each(attr, req, sizeof(struct nfgenmsg))
		if (mnl_attr_get_type(attr) == NFTA_SET_ELEM_LIST_ELEMENTS)
			nest = attr;
	if (!nest)
		return elem_attr_range(si, elem, start, end);
	mnl_attr_for_each_nested(attr, nest) {
		if (found) {
			next = attr;
			break;
		}
		if (attr == elem)
			found = 1;
		else
			prev = attr;
	}
	is_end = elem_attr_is_end(elem);
	if (!found || elem_attr_range(si, elem, start, end))
		return -EINVAL;
	if (is_end && prev && !elem_attr_is_end(prev))
		return elem_attr_range(si, prev, start, s2);
	if (!is_end) {
		memset(end, 0xff, si->kt.key_len);	/* no end element: the top */
		if (next && elem_attr_is_end(next))
			return elem_attr_range(si, next, s2, end);
	}
	return 0;
}
