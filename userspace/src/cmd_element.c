// SPDX-License-Identifier: GPL-2.0
/*
 * element add|del|get FAMILY TABLE SET [ELEMENT]... [--file FILE]
 *         [--gen FIELDS --count N [--start N] [--range-size N] [--proto P]]
 *
 * Elements are streamed: each one is parsed and serialised straight into
 * the transaction (NEWSETELEM/DELSETELEM messages of up to 60 KiB), nothing
 * per element is kept.  Parse errors abort before anything is sent; kernel
 * errors are mapped back to the element through the extended ACK offset.
 *
 * Encoding, as nft 1.0.6 sends it:
 *  - hash sets: NFTA_SET_ELEM_KEY;
 *  - concatenated interval sets (NFT_SET_CONCAT): KEY = range starts,
 *    KEY_END = range ends, also for single values;
 *  - single-field interval sets: the start element, then an element at
 *    end + 1 flagged NFT_SET_ELEM_INTERVAL_END (omitted when end is the
 *    largest value).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>
#include <libnftnl/set.h>

#include "cmd.h"
#include "elem.h"
#include "gen.h"
#include "setinfo.h"

static const char elem_usage[] =
	"element add|del|get FAMILY TABLE SET [ELEMENT]... [--file FILE|-]"
	" [--gen FIELDS --count N [--start N] [--range-size N] [--proto P]]";

struct elem_opts {
	const char *file, *gen, *proto;
	uint64_t start, count, range;
	int have_count;
};

/* Serialises elements into a transaction, one message at a time. */
struct elem_writer {
	struct txn *t;
	const struct setinfo *si;
	uint16_t type, flags;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	struct nftnl_set_elem *e;
	uint64_t count;
};

static void ew_open(struct elem_writer *w)
{
	w->nlh = txn_msg_begin(w->t, w->type, w->si->family, w->flags);
	mnl_attr_put_strz(w->nlh, NFTA_SET_ELEM_LIST_TABLE, w->si->table);
	mnl_attr_put_strz(w->nlh, NFTA_SET_ELEM_LIST_SET, w->si->name);
	w->nest = mnl_attr_nest_start(w->nlh, NFTA_SET_ELEM_LIST_ELEMENTS);
}

static int ew_close(struct elem_writer *w)
{
	int err;

	if (!w->nlh)
		return 0;
	mnl_attr_nest_end(w->nlh, w->nest);
	err = txn_msg_end(w->t);
	w->nlh = NULL;
	return err;
}

static int ew_put(struct elem_writer *w, const uint8_t *key,
		  const uint8_t *key_end, uint32_t flags, uint64_t timeout)
{
	struct nftnl_set_elem *e = w->e;
	uint32_t len = w->si->kt.key_len;

	if (!w->nlh)
		ew_open(w);
	nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY, key, len);
	if (key_end)
		nftnl_set_elem_set(e, NFTNL_SET_ELEM_KEY_END, key_end, len);
	else
		nftnl_set_elem_unset(e, NFTNL_SET_ELEM_KEY_END);
	if (flags)
		nftnl_set_elem_set_u32(e, NFTNL_SET_ELEM_FLAGS, flags);
	else
		nftnl_set_elem_unset(e, NFTNL_SET_ELEM_FLAGS);
	if (timeout)
		nftnl_set_elem_set_u64(e, NFTNL_SET_ELEM_TIMEOUT, timeout);
	else
		nftnl_set_elem_unset(e, NFTNL_SET_ELEM_TIMEOUT);
	nftnl_set_elem_nlmsg_build(w->nlh, e, NFTA_LIST_ELEM);
	if (txn_bytes(w->t) + w->nlh->nlmsg_len > w->t->max_bytes)
		return -EMSGSIZE;
	w->count++;
	if (w->nlh->nlmsg_len >= TXN_ELEM_MSG_LIMIT)
		return ew_close(w);
	return 0;
}

static int ew_add(struct elem_writer *w, const struct elem *el,
		  char *why, size_t whylen)
{
	const struct setinfo *si = w->si;
	uint8_t next[KT_MAX_KEY];
	int err;

	if (setinfo_is_concat_interval(si))
		return ew_put(w, el->key, el->key_end, 0, el->timeout_ms);
	if (!setinfo_is_single_interval(si)) {
		if (el->is_range) {
			snprintf(why, whylen, "ranges need a set with flags interval");
			return -EINVAL;
		}
		return ew_put(w, el->key, NULL, 0, el->timeout_ms);
	}
	err = ew_put(w, el->key, NULL, 0, el->timeout_ms);
	if (err)
		return err;
	if (elem_key_inc(&si->kt, el->key_end, next))
		return 0;	/* range up to the largest value: no end */
	return ew_put(w, next, NULL, NFT_SET_ELEM_INTERVAL_END, 0);
}

/* Error reporter hook: format the element attribute the kernel points at. */
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

static int elem_fmt(const struct nlattr *elem, char *buf, size_t len, void *data)
{
	const struct setinfo *si = data;
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

/* where: "FILE:LINE" context for messages, built only when needed */
struct elem_src {
	const char *file;	/* NULL: command line */
	unsigned long line;
};

static void elem_bad(const struct ctx *c, const struct setinfo *si,
		     const struct elem_src *src, const char *text,
		     const char *why)
{
	char where[300] = "";

	if (src && src->file && src->line)
		snprintf(where, sizeof(where), "%s:%lu: ", src->file, src->line);
	else if (src && src->file)
		snprintf(where, sizeof(where), "%s: ", src->file);
	fprintf(stderr, "nftlab: %s: %s/%s/%s: %s%s: %s\n", c->op,
		nl_family_name(si->family), si->table, si->name, where, text,
		why);
}

static int elem_one(struct ctx *c, struct elem_writer *w,
		    const struct elem_src *src, const char *text)
{
	struct elem el;
	char why[256];
	int err;

	err = elem_parse(&el, &w->si->kt, text, why, sizeof(why));
	if (!err)
		err = ew_add(w, &el, why, sizeof(why));
	if (err == -EINVAL)
		elem_bad(c, w->si, src, text, why);
	return err;
}

static int elem_from_file(struct ctx *c, struct elem_writer *w,
			  const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct elem_src src = { .file = path, .line = 0 };
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	if (!f) {
		err = -errno;
		fprintf(stderr, "nftlab: %s: %s: %s\n", c->op, path,
			strerror(errno));
		return err;
	}
	while (getline(&line, &cap, f) >= 0) {
		const char *text = elem_trim(line);

		src.line++;
		if (!*text)
			continue;
		err = elem_one(c, w, &src, text);
		if (err)
			break;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return err;
}

static int elem_from_gen(struct ctx *c, struct elem_writer *w,
			 const struct elem_opts *o)
{
	struct elem_src src = { .file = "generated", .line = 0 };
	struct gen g;
	char text[256];
	int ret;

	if (gen_init(&g, o->gen, o->start, o->count, o->range, o->proto)) {
		fprintf(stderr, "nftlab: %s: bad --gen '%s' (fields: addr4, "
			"addr6, port, proto, mac)\n", c->op, o->gen);
		return -EINVAL;
	}
	if (!gen_matches(&g, &w->si->kt)) {
		fprintf(stderr, "nftlab: %s: --gen '%s' does not match the "
			"set's key type\n", c->op, o->gen);
		return -EINVAL;
	}
	while ((ret = gen_next(&g, text, sizeof(text))) > 0) {
		src.line++;
		ret = elem_one(c, w, &src, text);
		if (ret)
			return ret;
	}
	return ret;
}

static int elem_parse_opts(struct ctx *c, int argc, char **argv,
			   struct elem_opts *o, int *first_pos)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "gen", required_argument, NULL, 'g' },
		{ "start", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "range-size", required_argument, NULL, 'r' },
		{ "proto", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, err = 0;

	o->start = 1;
	o->range = 0;
	optind = 0;
	/* "-" permutes nothing and returns positionals as 1 */
	while (!err && (ch = getopt_long(argc, argv, "-", opts, NULL)) != -1) {
		switch (ch) {
		case 1:
			if (!*first_pos)
				*first_pos = optind - 1;
			break;
		case 'f': o->file = optarg; break;
		case 'g': o->gen = optarg; break;
		case 'p': o->proto = optarg; break;
		case 's':
			err = cmd_u64(c, "--start", optarg, UINT32_MAX, &o->start);
			break;
		case 'n':
			err = cmd_u64(c, "--count", optarg, UINT32_MAX, &o->count);
			o->have_count = 1;
			break;
		case 'r':
			err = cmd_u64(c, "--range-size", optarg, UINT32_MAX, &o->range);
			break;
		default:
			return cmd_usage(c, elem_usage);
		}
	}
	if (!err && o->gen && !o->have_count)
		return cmd_usage(c, elem_usage);
	return err;
}

/* Positional elements, in order; skip option arguments. */
static int elem_from_args(struct ctx *c, struct elem_writer *w, int argc,
			  char **argv)
{
	for (int i = 1; i < argc; i++) {
		int err;

		if (argv[i][0] == '-' && argv[i][1] == '-') {
			if (!strchr(argv[i], '='))
				i++;	/* every option takes an argument */
			continue;
		}
		err = elem_one(c, w, NULL, argv[i]);
		if (err)
			return err;
	}
	return 0;
}

static int elem_get(struct ctx *c, struct setinfo *si, int argc, char **argv);

static int elem_setinfo(struct ctx *c, struct setinfo *si)
{
	struct nl_err e;
	int err = setinfo_get(&c->nl, si, &e);

	if (err == -EOPNOTSUPP)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: set key type not supported "
			"by nftlab\n", c->op, nl_family_name(si->family),
			si->table, si->name);
	else if (err)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s%s%s%s\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			strerror(-err), e.msg[0] ? " (" : "", e.msg,
			e.msg[0] ? ")" : "");
	return err;
}

int cmd_element(struct ctx *c, int argc, char **argv)
{
	struct elem_opts o = { 0 };
	struct setinfo si = { 0 };
	struct elem_writer w = { 0 };
	struct txn t;
	int first_pos = 0, err;
	uint16_t type, flags = 0;

	if (argc < 4)
		return cmd_usage(c, elem_usage);
	if (!strcmp(argv[0], "add")) {
		type = NFT_MSG_NEWSETELEM;
		flags = NLM_F_CREATE | NLM_F_EXCL;
	} else if (!strcmp(argv[0], "del")) {
		type = NFT_MSG_DELSETELEM;
	} else if (!strcmp(argv[0], "get")) {
		type = NFT_MSG_GETSETELEM;
	} else {
		return cmd_usage(c, elem_usage);
	}
	err = cmd_family(c, argv[1], &si.family);
	if (err)
		return err;
	si.table = argv[2];
	si.name = argv[3];
	err = elem_parse_opts(c, argc - 3, argv + 3, &o, &first_pos);
	if (err)
		return err;
	if (!first_pos && !o.file && !o.gen)
		return cmd_usage(c, elem_usage);
	err = elem_setinfo(c, &si);
	if (err)
		return err;
	if (type == NFT_MSG_GETSETELEM)
		return elem_get(c, &si, argc - 3, argv + 3);

	err = cmd_txn_begin(c, &t);
	if (err)
		return err;
	w.t = &t;
	w.si = &si;
	w.type = type;
	w.flags = flags;
	w.e = nftnl_set_elem_alloc();
	if (!w.e) {
		txn_fini(&t);
		return -ENOMEM;
	}
	err = elem_from_args(c, &w, argc - 3, argv + 3);
	if (!err && o.file)
		err = elem_from_file(c, &w, o.file);
	if (!err && o.gen)
		err = elem_from_gen(c, &w, &o);
	if (!err)
		err = ew_close(&w);
	nftnl_set_elem_free(w.e);
	if (err == -EMSGSIZE)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: transaction exceeds "
			"--max-batch %zu bytes at element %llu, nothing sent: %s\n",
			c->op, nl_family_name(si.family), si.table, si.name,
			c->max_batch, (unsigned long long)w.count + 1,
			strerror(EMSGSIZE));
	if (err) {
		txn_fini(&t);
		return err;
	}
	{
		struct txn_reporter rep = {
			.op = c->op, .elem_fmt = elem_fmt, .data = &si,
			.max_reports = 10,
		};

		err = txn_commit(&t, &c->nl, &rep);
		if (c->stats)
			txn_print_stats(&t, c->op, w.count);
		txn_fini(&t);
	}
	return err;
}

/*
 * element get: ask the kernel for the element and print what it returns.
 * A single-field interval set answers with the range's start element; a
 * second lookup of (value + 1) flagged NFT_SET_ELEM_INTERVAL_END returns the
 * end element (end + 1), to print the whole range (nft 1.0.6 dumps the set
 * instead).
 */
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

static int elem_get_req(struct ctx *c, const struct setinfo *si,
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
				    NLM_F_ACK, c->nl.seq++);
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
	return nl_talk(&c->nl, nlh, get_cb, g, buf, sizeof(buf), ne);
}

static int elem_get_one(struct ctx *c, struct setinfo *si, const char *text)
{
	struct get_result g, end;
	struct nl_err ne;
	struct elem el;
	char why[256], out[512];
	int err;

	err = elem_parse(&el, &si->kt, text, why, sizeof(why));
	if (err) {
		elem_bad(c, si, NULL, text, why);
		return err;
	}
	err = elem_get_req(c, si, el.key, setinfo_is_concat_interval(si) ?
			   el.key_end : NULL, 0, &g, &ne);
	if (!err && !g.found)
		err = -ENOENT;
	if (err) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s: %s%s%s%s\n", c->op,
			nl_family_name(si->family), si->table, si->name, text,
			strerror(-err), ne.msg[0] ? " (" : "", ne.msg,
			ne.msg[0] ? ")" : "");
		return err;
	}
	if (setinfo_is_single_interval(si)) {
		/*
		 * The range's end element holds end + 1; none: up to the top.
		 * Ask for the first end element at or above (queried value + 1),
		 * not at the queried value itself: rbtree start elements carry
		 * no flags extension, so older kernels (6.12) match a start
		 * element with the queried key whatever INTERVAL_END says, and
		 * the answer would be the start again.  Any element keyed
		 * value + 1 marks the end of this range (its end element, or the
		 * start of an adjacent range), so both kernels agree.
		 */
		uint8_t next[KT_MAX_KEY];

		memset(g.key_end, 0xff, sizeof(g.key_end));
		g.has_end = 1;
		if (!elem_key_inc(&si->kt, el.key_end, next) &&
		    !elem_get_req(c, si, next, NULL,
				  NFT_SET_ELEM_INTERVAL_END, &end, &ne) &&
		    end.found && elem_key_dec(&si->kt, end.key, g.key_end))
			memcpy(g.key_end, g.key, si->kt.key_len);
	}
	if (elem_format(&si->kt, g.key, g.has_end ? g.key_end : NULL, out,
			sizeof(out)))
		return -ENOSPC;
	printf("%s\n", out);
	return 0;
}

static int elem_get(struct ctx *c, struct setinfo *si, int argc, char **argv)
{
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		int err;

		if (argv[i][0] == '-' && argv[i][1] == '-') {
			fprintf(stderr, "nftlab: %s: only literal elements\n", c->op);
			return -EINVAL;
		}
		err = elem_get_one(c, si, argv[i]);
		if (err && !ret)
			ret = err;
	}
	return ret;
}
