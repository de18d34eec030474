// SPDX-License-Identifier: GPL-2.0
/*
 * set add FAMILY TABLE NAME --type SPEC [--flags interval,timeout,constant,
 *         dynamic] [--timeout TIME] [--size N] [--counter]
 *         [--policy performance|memory]
 * set del|flush FAMILY TABLE NAME
 *
 * Sets are declared as nft 1.0.6 does for a "type" declaration: key type id
 * and length, NFT_SET_CONCAT plus the field lengths for concatenated
 * interval sets, and the user data nft reads back when listing (key byte
 * order; for concatenations an empty typeof record, as nft writes it).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/expr.h>
#include <libnftnl/set.h>
#include <libnftnl/udata.h>

#include "cmd.h"
#include "elem.h"
#include "keytype.h"

struct set_opts {
	const char *type, *flags, *timeout, *size, *policy, *data;
	int counter, automerge;
};

static int set_parse_opts(struct ctx *c, int argc, char **argv,
			  struct set_opts *o)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "flags", required_argument, NULL, 'f' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "size", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'p' },
		{ "counter", no_argument, NULL, 'c' },
		{ "data", required_argument, NULL, 'd' },
		{ "auto-merge", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int seen = 0;
	int ch, li = 0, err = 0;

	optind = 0;
	opterr = 0;
	while (!err && (ch = cmd_getopt(argc, argv, "+:", opts, &li)) != -1) {
		switch (ch) {
		case 't': o->type = optarg; break;
		case 'f': o->flags = optarg; break;
		case 'T': o->timeout = optarg; break;
		case 's': o->size = optarg; break;
		case 'p': o->policy = optarg; break;
		case 'c': o->counter = 1; break;
		case 'd': o->data = optarg; break;
		case 'a': o->automerge = 1; break;
		default: return cmd_opt_err(c, ch, argv);
		}
		err = cmd_once(c, &seen, li, opts[li].name);
	}
	if (err)
		return err;
	return optind == argc ? 0 : cmd_usage(c);
}

static int set_flags(struct ctx *c, const char *list, uint32_t *flags)
{
	static const struct { const char *name; uint32_t flag; } names[] = {
		{ "constant", NFT_SET_CONSTANT }, { "interval", NFT_SET_INTERVAL },
		{ "timeout", NFT_SET_TIMEOUT }, { "dynamic", NFT_SET_EVAL },
	};
	const char *p = list;
	struct qbuf q;

	if (list && !*list)
		return cmd_refuse(c, "--flags: empty list");
	while (p && *p) {
		size_t len = strcspn(p, ", "), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    !strncmp(names[i].name, p, len))
				break;
		if (i == sizeof(names) / sizeof(names[0]) &&
		    !strncmp(p, "auto-merge", len) && len == 10)
			return cmd_refuse(c, "--flags: auto-merge is no set flag "
					  "(in nft either): --auto-merge");
		if (i == sizeof(names) / sizeof(names[0]))
			return cmd_refuse(c, "unknown set flag in '%s' (interval, "
					  "timeout, constant, dynamic)",
					  quote(&q, list));
		if (*flags & names[i].flag)
			return cmd_refuse(c, "--flags: '%s' given twice in '%s'",
					  names[i].name, quote(&q, list));
		*flags |= names[i].flag;
		p += len;
		p += strspn(p, ", ");
	}
	return 0;
}

static int set_udata(struct nftnl_set *s, const struct keytype *kt,
		     int automerge)
{
	struct nftnl_udata_buf *ud = nftnl_udata_buf_alloc(64);
	struct nftnl_udata *nest;
	uint32_t order = 0;	/* BYTEORDER_INVALID for concatenations */

	if (!ud)
		return -ENOMEM;
	if (kt->nfields == 1)
		order = keytype_field_byteorder(kt->f[0].type);
	nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_KEYBYTEORDER, order);
	if (kt->dtype) {
		/* as nft 1.0.6: data byte order (0 for verdicts), no intervals */
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_DATABYTEORDER,
				    kt->dtype == KT_DATA_VERDICT ? 0 :
				    keytype_field_byteorder(kt->dtype));
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_DATA_INTERVAL, 0);
	}
	if (automerge)	/* as nft writes it; nft lists "auto-merge" */
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_MERGE_ELEMENTS, 1);
	if (kt->nfields > 1) {
		nest = nftnl_udata_nest_start(ud, NFTNL_UDATA_SET_KEY_TYPEOF);
		nftnl_udata_put_u32(ud, NFTNL_UDATA_SET_TYPEOF_EXPR, 13);
		nftnl_udata_nest_end(ud, nftnl_udata_nest_start(ud,
				     NFTNL_UDATA_SET_TYPEOF_DATA));
		nftnl_udata_nest_end(ud, nest);
	}
	nftnl_set_set_data(s, NFTNL_SET_USERDATA, nftnl_udata_buf_data(ud),
			   nftnl_udata_buf_len(ud));
	nftnl_udata_buf_free(ud);
	return 0;
}

/* --auto-merge: as nft 1.0.6 merges, single-field interval sets only */
static int set_automerge(struct ctx *c, const struct set_opts *o,
			 struct setinfo *si)
{
	if (!o->automerge)
		return 0;
	if (si->kt.dtype)
		return cmd_refuse(c, "--auto-merge is for sets (nft 1.0.6 has "
				  "no auto-merge for maps)");
	if (!(si->flags & NFT_SET_INTERVAL))
		return cmd_refuse(c, "--auto-merge needs --flags interval (as "
				  "in nft: auto-merge only works with interval "
				  "sets)");
	if (si->kt.nfields > 1)
		return cmd_refuse(c, "--auto-merge: single-field interval sets "
				  "only (nft 1.0.6 takes it on concatenations "
				  "but merges nothing there)");
	si->automerge = 1;
	return 0;
}

/* --policy and --counter */
static int set_policy_counter(struct ctx *c, struct nftnl_set *s,
			      const struct set_opts *o)
{
	struct qbuf q;

	if (o->policy) {
		if (strcmp(o->policy, "performance") && strcmp(o->policy, "memory"))
			return cmd_refuse(c, "bad policy '%s' (performance, "
					  "memory)", quote(&q, o->policy));
		nftnl_set_set_u32(s, NFTNL_SET_POLICY, strcmp(o->policy, "memory") ?
				  NFT_SET_POL_PERFORMANCE : NFT_SET_POL_MEMORY);
	}
	if (o->counter) {
		struct nftnl_expr *e = nftnl_expr_alloc("counter");

		if (!e)
			return -ENOMEM;
		nftnl_set_add_expr(s, e);
	}
	return 0;
}

static int set_fill(struct ctx *c, struct nftnl_set *s, const struct set_opts *o,
		    struct setinfo *si)
{
	struct keytype kt;
	uint32_t flags = 0;
	uint64_t v = 0;
	struct qbuf q;
	int err;

	if (!o->type)
		return cmd_refuse(c, "%s add needs --type", c->object);
	err = keytype_parse(&kt, o->type);
	if (err == -E2BIG)
		return cmd_refuse(c, "key type '%s': at most %d fields (6 bits "
				  "each in the 32-bit key type id) and %d bytes",
				  quote(&q, o->type), KT_MAX_FIELDS, KT_MAX_KEY);
	if (err)
		return cmd_refuse(c, "bad key type '%s' (ipv4_addr, ipv6_addr, "
				  "ether_addr, inet_proto, inet_service, mark, "
				  "joined by ' . ')", quote(&q, o->type));
	err = set_flags(c, o->flags, &flags);
	if (err)
		return err;
	if (o->data) {
		if (keytype_set_data(&kt, o->data))
			return cmd_refuse(c, "bad --data '%s' (verdict, ipv4_addr, "
					  "ipv6_addr, ether_addr, inet_proto, "
					  "inet_service, mark)", quote(&q, o->data));
		flags |= NFT_SET_MAP;
		nftnl_set_set_u32(s, NFTNL_SET_DATA_TYPE, kt.dtype);
		nftnl_set_set_u32(s, NFTNL_SET_DATA_LEN, kt.dlen);
	}
	if ((flags & NFT_SET_INTERVAL) && kt.nfields > 1) {
		uint8_t lens[KT_MAX_FIELDS + 1] = { 0 };

		flags |= NFT_SET_CONCAT;
		for (unsigned int i = 0; i < kt.nfields; i++)
			lens[i] = (uint8_t)kt.f[i].len;
		nftnl_set_set_data(s, NFTNL_SET_DESC_CONCAT, lens, kt.nfields);
	}
	if (o->timeout) {
		char why[160];

		err = timeout_parse(o->timeout, &v);
		if (err) {
			timeout_why(quote(&q, o->timeout), err, why,
				    sizeof(why));
			return cmd_refuse(c, "%s", why);
		}
	}
	/* --timeout 0s: no timeout, nor the flag for it (as nft's
	 * "timeout 0s"); the timeout flag comes from --flags then */
	if (o->timeout && v) {
		flags |= NFT_SET_TIMEOUT;
		nftnl_set_set_u64(s, NFTNL_SET_TIMEOUT, v);
	}
	if (o->size) {
		err = cmd_u64(c, "--size", o->size, 1, UINT32_MAX, &v);
		if (err)
			return err;
		nftnl_set_set_u32(s, NFTNL_SET_DESC_SIZE, (uint32_t)v);
		si->size = (uint32_t)v;
	}
	err = set_policy_counter(c, s, o);
	if (err)
		return err;
	nftnl_set_set_u32(s, NFTNL_SET_FLAGS, flags);
	nftnl_set_set_u32(s, NFTNL_SET_KEY_TYPE, keytype_id(&kt));
	nftnl_set_set_u32(s, NFTNL_SET_KEY_LEN, kt.key_len);
	nftnl_set_set_u32(s, NFTNL_SET_ID, 1);
	si->flags = flags;
	si->kt = kt;
	si->kt.interval = !!(flags & NFT_SET_INTERVAL);
	err = set_automerge(c, o, si);
	return err ? err : set_udata(s, &kt, o->automerge);
}

/*
 * set add of a set that exists (in the kernel, or declared earlier in the
 * transaction): 1, with what it is in have; 0: the set is new.  The
 * kernel leaves an existing set as it is: it refuses other flags, types
 * or lengths (EEXIST) and ignores the rest, among it the user data that
 * holds auto-merge.  It is not emptied, and later commands see it as it
 * is.  So an auto-merge that differs is refused here rather than dropped
 * (nft's add set drops it: the set keeps merging, or not, as before).
 */
static int set_existing(struct ctx *c, const struct setinfo *si,
			struct setinfo *have)
{
	struct nl_err ne;
	int err;

	err = setreg_find(&c->sets, si->family, si->table, si->name, have);
	if (err == -ENOENT)
		return 0;	/* deleted earlier in this transaction */
	if (err == 0) {
		memset(have, 0, sizeof(*have));
		have->family = si->family;
		have->table = si->table;
		have->name = si->name;
		err = setinfo_get(&c->nl, have, &ne);
		if (err == -ENOENT)
			return 0;
		if (err == -EOPNOTSUPP)
			return 1;	/* nftlab cannot read it: the kernel decides */
		if (!err)
			err = setreg_add(&c->sets, have);
		if (err) {
			fprintf(stderr, "nftlab: %s: %s/%s/%s: the set as it is "
				"(set add of an existing set): %s%s%s%s\n", c->op,
				nl_family_name(si->family), si->table, si->name,
				strerror(-err), ne.msg[0] ? " (" : "", ne.msg,
				ne.msg[0] ? ")" : "");
			return err;
		}
	}
	if (have->automerge != si->automerge)
		return cmd_refuse(c, "%s/%s/%s: exists %s auto-merge, and set add "
				  "leaves an existing set as it is (nft's add "
				  "set ignores the difference): %s, or set del "
				  "it first", nl_family_name(si->family),
				  si->table, si->name,
				  have->automerge ? "with" : "without",
				  have->automerge ? "give --auto-merge" :
				  "leave --auto-merge out");
	return 1;
}

/*
 * What later commands of a script know of the set: its declaration (a new
 * set; an existing one stays as it is), its deletion, and that a new or
 * flushed set is empty (auto-merge, open intervals).
 */
static int set_remember(struct ctx *c, uint16_t type, const struct setinfo *si,
			int existing)
{
	int err = 0;

	if (type == NFT_MSG_NEWSET && existing)
		return 0;
	if (type == NFT_MSG_NEWSET)
		err = setreg_add(&c->sets, si);
	else if (type == NFT_MSG_DELSET)
		err = setreg_forget(&c->sets, si->family, si->table, si->name);
	if (!err && type == NFT_MSG_DELSET) {
		merge_reg_forget(&c->merges, si->family, si->table, si->name);
		open_reg_forget(&c->opens, si->family, si->table, si->name);
	} else if (!err) {
		err = open_reg_empty(&c->opens, si->family, si->table,
				     si->name);
		if (!err && (type == NFT_MSG_DELSETELEM || si->automerge))
			err = merge_reg_empty(&c->merges, si->family, si->table,
					      si->name, si->kt.key_len);
	}
	if (!err && (type == NFT_MSG_DELSETELEM || type == NFT_MSG_DELSET))
		err = ivl_changed_note(c, si, type == NFT_MSG_DELSET);
	return err;
}

/*
 * set flush of a map, map flush of a set: the kernel flushes either, nft
 * 1.0.6 answers "No such file or directory" (its cache tells sets from
 * maps).  Refused here, saying what it is.  A set declared earlier in the
 * script is known; else the kernel is asked, and a set it does not have
 * (or cannot describe) is left to the flush's own answer.
 */
static int set_flush_kind(struct ctx *c, const struct setinfo *want,
			  int is_map)
{
	struct setinfo si = *want;
	struct nl_err e;
	int err = setreg_find(&c->sets, si.family, si.table, si.name, &si);

	if (err == 0) {
		err = setinfo_get(&c->nl, &si, &e);
		/* an unknown key type: the flags were read before it */
		if (err == -EOPNOTSUPP)
			err = 0;
	} else if (err == 1) {
		err = 0;
	}
	if (err)
		return err == -ENOMEM ? err : 0;
	if (!(si.flags & NFT_SET_MAP) == !is_map)
		return 0;
	return cmd_refuse(c, "%s/%s/%s: no such %s: it is a %s (%s flush)",
			  nl_family_name(si.family), si.table, si.name,
			  is_map ? "map" : "set", is_map ? "set" : "map",
			  is_map ? "set" : "map");
}

int cmd_set(struct ctx *c, int argc, char **argv)
{
	struct set_opts o = { 0 };
	struct nftnl_set *s;
	struct nlmsghdr *nlh;
	uint16_t family, type, flags = 0;
	struct setinfo si = { 0 }, have;
	struct txn own, *t;
	int is_map = !strcmp(c->object, "map");
	int err = 0, existing = 0;

	if (argc >= 1 && !strcmp(argv[0], "sync"))
		return cmd_set_sync(c, argc, argv);
	if (argc < 4)
		return cmd_usage(c);
	if (!strcmp(argv[0], "add")) {
		type = NFT_MSG_NEWSET;
		flags = NLM_F_CREATE;
	} else if (!strcmp(argv[0], "del")) {
		type = NFT_MSG_DELSET;
	} else if (!strcmp(argv[0], "flush")) {
		type = NFT_MSG_DELSETELEM;	/* no elements: flush */
	} else {
		return cmd_usage(c);
	}
	err = cmd_family(c, argv[1], &family);
	if (!err)
		err = cmd_name(c, "table", argv[2]);
	if (!err)
		err = cmd_name(c, c->object, argv[3]);
	if (!err)
		err = set_parse_opts(c, argc - 3, argv + 3, &o);
	if (err)
		return err;
	if (type != NFT_MSG_NEWSET && (o.type || o.flags || o.timeout ||
				       o.size || o.policy || o.counter || o.data ||
				       o.automerge))
		return cmd_refuse(c, "%s %s takes no options", c->object, argv[0]);
	if (type == NFT_MSG_NEWSET && is_map && !o.data)
		return cmd_refuse(c, "map add needs --data verdict|TYPE");
	if (is_map ? 0 : !!o.data)
		return cmd_refuse(c, "--data is for maps (map add)");
	si.family = family;
	si.table = argv[2];
	si.name = argv[3];
	s = nftnl_set_alloc();
	if (!s)
		return -ENOMEM;
	nftnl_set_set_str(s, NFTNL_SET_TABLE, argv[2]);
	nftnl_set_set_str(s, NFTNL_SET_NAME, argv[3]);
	nftnl_set_set_u32(s, NFTNL_SET_FAMILY, family);
	if (type == NFT_MSG_NEWSET)
		err = set_fill(c, s, &o, &si);
	else if (type == NFT_MSG_DELSETELEM)
		err = set_flush_kind(c, &si, is_map);
	if (!err && type == NFT_MSG_NEWSET) {
		err = set_existing(c, &si, &have);
		existing = err > 0;
		err = err > 0 ? 0 : err;
	}
	if (!err)
		err = cmd_txn_begin(c, &own, &t);
	if (err) {
		nftnl_set_free(s);
		return err;
	}
	nlh = txn_msg_begin(t, type, family, flags);
	if (type == NFT_MSG_DELSETELEM)
		nftnl_set_elems_nlmsg_build_payload(nlh, s);
	else
		nftnl_set_nlmsg_build_payload(nlh, s);
	nftnl_set_free(s);
	err = txn_msg_end(t);
	/* later commands of a script see the set as declared here, or as it
	 * is if it exists */
	if (!err)
		err = set_remember(c, type, &si, existing);
	if (err) {
		cmd_txn_abort(c, t);
		return cmd_fail(c, argv[3], err);
	}
	return cmd_commit(c, t);
}
