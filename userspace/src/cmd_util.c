// SPDX-License-Identifier: GPL-2.0
/* Small helpers shared by the subcommands. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "elem_lookup.h"
#include "name.h"

/* An input error: message, exit status 2, nothing sent. */
int cmd_refuse(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nftlab: %s: ", c->op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	c->refused = 1;
	return -EINVAL;
}

static int is_global_opt(const char *a);
static int refuse_global(struct ctx *c, const char *a);

int cmd_usage(struct ctx *c)
{
	const struct cmd_desc *d = cmd_find(c->object);
	const char *u = d ? d->usage : "";
	size_t n = strcspn(u, "\n");

	/* "table add ip t --stats": say where --stats goes */
	for (int i = 1; i < c->argc && strcmp(c->argv[i], "--"); i++)
		if (is_global_opt(c->argv[i]))
			return refuse_global(c, c->argv[i]);
	fprintf(stderr, "nftlab: %s: usage: nftlab %.*s%s (nftlab %s --help)\n",
		c->op, (int)n, u, u[n] ? " ..." : "", c->object);
	c->refused = 1;
	return -EINVAL;
}

/* The options main() takes, before the command only. */
static int is_global_opt(const char *a)
{
	return !strcmp(a, "--stats") || !strcmp(a, "--max-batch") ||
	       !strcmp(a, "-c") || !strcmp(a, "--check") ||
	       !strcmp(a, "-f") || !strcmp(a, "--version") ||
	       !strncmp(a, "--max-batch=", 12);
}

static int refuse_global(struct ctx *c, const char *a)
{
	const char *arg = !strcmp(a, "-f") ? " FILE" :
			  !strcmp(a, "--max-batch") ? " BYTES" : "";
	struct qbuf q;

	return cmd_refuse(c, "'%s' is a global option: global options go "
			  "first (nftlab %s%s %s ...)", quote(&q, a), a, arg,
			  c->object);
}

/* getopt_long() returned '?' or ':' (optstring starts with "+:" or "-:") */
int cmd_opt_err(struct ctx *c, int ch, char **argv)
{
	struct qbuf q;
	const char *arg = optind > 0 ? argv[optind - 1] : "?";

	if (ch == ':')
		return cmd_refuse(c, "option '%s' needs an argument",
				  quote(&q, arg));
	if (is_global_opt(arg))
		return refuse_global(c, arg);
	if (!strcmp(c->object, "element") && arg[0] == '-' && arg[1] != '-')
		return cmd_refuse(c, "unknown option '%s' (an element that "
				  "starts with '-' goes after '--': nftlab "
				  "element add FAMILY TABLE SET -- %s)",
				  quote(&q, arg), quote(&q, arg));
	return cmd_refuse(c, "unknown option '%s' (nftlab %s --help)",
			  quote(&q, arg), c->object);
}

/*
 * getopt_long() with full option names only: glibc would take any unique
 * prefix ("--co" for --count), which nftlab.8 does not promise and a later
 * option could make ambiguous.  None of the commands has short options, so
 * "-x" words are unknown options too.  An unknown word comes back as '?'
 * with optind past it, as getopt_long() itself reports it.
 */
int cmd_getopt(int argc, char **argv, const char *optstring,
	       const struct option *opts, int *li)
{
	int i = optind ? optind : 1;
	const char *a = i < argc ? argv[i] : NULL;
	size_t n;

	if (!a || a[0] != '-' || !a[1] || !strcmp(a, "--"))
		return getopt_long(argc, argv, optstring, opts, li);
	if (a[1] != '-')
		goto unknown;
	n = strcspn(a + 2, "=");
	for (int k = 0; opts[k].name; k++)
		if (strlen(opts[k].name) == n && !strncmp(opts[k].name, a + 2, n))
			return getopt_long(argc, argv, optstring, opts, li);
unknown:
	optind = i + 1;
	return '?';
}

/* Options given twice are refused, not silently overridden. */
/* idx: the option's index in its struct option array (< 32) */
int cmd_once(struct ctx *c, unsigned int *seen, int idx, const char *opt)
{
	unsigned int bit = 1U << ((unsigned int)idx % 32);

	if (*seen & bit)
		return cmd_refuse(c, "--%s given twice", opt);
	*seen |= bit;
	return 0;
}

/* txn_msg_end() failed, or a transaction could not be begun */
int cmd_fail(struct ctx *c, const char *what, int err)
{
	if (err == -EMSGSIZE) {
		fprintf(stderr, "nftlab: %s: %s: transaction exceeds --max-batch "
			"%zu bytes, nothing sent: %s\n", c->op, what,
			c->max_batch, strerror(-err));
		c->refused = 1;
		return err;
	}
	fprintf(stderr, "nftlab: %s: %s: %s\n", c->op, what, strerror(-err));
	return err;
}

int cmd_family(struct ctx *c, const char *name, uint16_t *family)
{
	struct qbuf q;

	if (nl_family_parse(name, family))
		return cmd_refuse(c, "unknown family '%s' (ip, ip6, inet, arp, "
				  "bridge, netdev)", quote(&q, name));
	return 0;
}

/* what: "table", "chain", ... */
int cmd_name(struct ctx *c, const char *what, const char *name)
{
	char why[160];
	struct qbuf q;

	if (name_check(name, why, sizeof(why)))
		return cmd_refuse(c, "%s name '%s': %s", what, quote(&q, name),
				  why);
	return 0;
}

/* FAMILY TABLE NAME in argv[1..3], checked (NAME as a WHAT), into si. */
int cmd_set_ref(struct ctx *c, char **argv, const char *what,
		struct setinfo *si)
{
	int err = cmd_family(c, argv[1], &si->family);

	if (!err)
		err = cmd_name(c, "table", argv[2]);
	if (!err)
		err = cmd_name(c, what, argv[3]);
	if (err)
		return err;
	si->table = argv[2];
	si->name = argv[3];
	return 0;
}

int cmd_u64(struct ctx *c, const char *opt, const char *s, uint64_t min,
	    uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	struct qbuf q;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || *s == '+' ||
	    *s == ' ' || v < min || v > max)
		return cmd_refuse(c, "%s: bad number '%s' (%llu-%llu)", opt,
				  quote(&q, s), (unsigned long long)min,
				  (unsigned long long)max);
	*out = v;
	return 0;
}

/* The transaction a command writes to: the script's, or own. */
int cmd_txn_begin(struct ctx *c, struct txn *own, struct txn **t)
{
	int err;

	if (c->script) {
		*t = c->script;
		return 0;
	}
	err = txn_init(own, &c->nl, c->max_batch);
	if (err)
		return cmd_fail(c, "transaction", err);
	elem_src_reset(&c->srcmap);
	own->check = c->check;
	*t = own;
	return 0;
}

void cmd_txn_abort(struct ctx *c, struct txn *t)
{
	if (t != c->script)
		txn_fini(t);
}

/* Commit own transaction (nothing to do in a script) and free it. */
int cmd_commit(struct ctx *c, struct txn *t)
{
	struct txn_reporter rep;
	int err;

	if (t == c->script)
		return 0;
	cmd_reporter(c, &rep, c->op);
	err = txn_commit(t, &c->nl, &rep);
	if (c->stats)
		txn_print_stats(t, c->op, c->elems);
	txn_fini(t);
	return err;
}

/*
 * What an element command needs to know about a set: declared earlier in
 * this transaction, or asked from the kernel (and remembered).
 */
int cmd_setinfo(struct ctx *c, struct setinfo *si)
{
	struct setinfo known;
	struct nl_err e;
	int err;

	err = setreg_find(&c->sets, si->family, si->table, si->name, &known);
	if (err == 1) {
		*si = known;
		return 0;
	}
	if (err == -ENOENT) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: deleted earlier in this "
			"script\n", c->op, nl_family_name(si->family),
			si->table, si->name);
		c->refused = 1;	/* nothing sent */
		return -ENOENT;
	}
	err = setinfo_get(&c->nl, si, &e);
	if (err == -EOPNOTSUPP)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: set key type not supported "
			"by nftlab\n", c->op, nl_family_name(si->family),
			si->table, si->name);
	else if (err)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s%s%s%s%s\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			err == -ENOENT ? "no such table or set: " : "",
			strerror(-err), e.msg[0] ? " (" : "", e.msg,
			e.msg[0] ? ")" : "");
	if (!err)
		err = setreg_add(&c->sets, si);
	return err;
}
