// SPDX-License-Identifier: GPL-2.0
/*
 * -f FILE: every line is an nftlab command; all of them are written into
 * one transaction, which is sent once at the end.  Input errors stop the
 * script before anything is sent; kernel errors name the script line whose
 * message failed (txn marks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "linein.h"
#include "script.h"

struct script {
	struct ctx *c;
	const char *path;
	struct txn t;
	struct words w;
	unsigned long cmds;
};

static int script_line(struct script *s, char *line, unsigned long lineno)
{
	struct ctx *c = s->c;
	char where[QUOTE_MAX + 32], op[QUOTE_MAX * 3 + 64], why[128];
	struct qbuf q, q2;
	int err;

	snprintf(where, sizeof(where), "%s:%lu: ", quote(&q, s->path), lineno);
	err = script_split(line, &s->w, why, sizeof(why));
	if (err == -EINVAL) {
		fprintf(stderr, "nftlab: %s%s\n", where, why);
		c->refused = 1;
		return err;
	}
	if (err || !s->w.n)
		return err;
	snprintf(op, sizeof(op), "%s%s%s%s", where, quote(&q, s->w.v[0]),
		 s->w.n > 1 ? " " : "", s->w.n > 1 ? quote(&q2, s->w.v[1]) : "");
	err = txn_mark(&s->t, op);
	if (err)
		return err;
	s->cmds++;
	err = cmd_run(c, (int)s->w.n, s->w.v, where, op, sizeof(op));
	c->op = "";	/* op lives on this stack frame */
	return err;
}

static int script_commit(struct script *s)
{
	struct ctx *c = s->c;
	struct txn_reporter rep;
	struct qbuf q;
	int err;

	/* empty, or comments and blank lines only: nothing to do, as for
	 * nft -f (exit 0); nothing is sent */
	if (!s->cmds)
		return 0;
	c->op = quote(&q, s->path);
	err = elem_merge_flush(c, &s->t);
	if (err && !c->refused)
		cmd_fail(c, "auto-merge", err);
	c->op = "";
	if (err)
		return err;
	cmd_reporter(c, &rep, quote(&q, s->path));
	err = txn_commit(&s->t, &c->nl, &rep);
	if (c->stats)
		txn_print_stats(&s->t, rep.op, c->elems);
	return err;
}

int script_run(struct ctx *c, const char *path)
{
	struct script s = { .c = c, .path = path };
	struct linein in;
	char *line;
	int err;

	err = linein_open(&in, "", path, c->stdin_used);
	if (err) {
		c->refused = 1;
		return err;
	}
	if (in.is_stdin)
		c->stdin_used = 1;
	err = txn_init(&s.t, &c->nl, c->max_batch);
	if (err) {
		linein_close(&in);
		return cmd_fail(c, "transaction", err);
	}
	s.t.check = c->check;
	c->script = &s.t;
	elem_src_reset(&c->srcmap);
	while ((err = linein_next(&in, &line)) > 0) {
		err = script_line(&s, line, in.lineno);
		if (err)
			break;
	}
	if (err < 0 && in.err)
		c->refused = 1;
	if (!err)
		err = script_commit(&s);
	c->script = NULL;
	words_free(&s.w);
	txn_fini(&s.t);
	linein_close(&in);
	return err;
}
