/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_CMD_H
#define NFTLAB_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "elem_merge.h"
#include "elem_open.h"
#include "elem_src.h"
#include "nl.h"
#include "quote.h"
#include "setreg.h"
#include "txn.h"

#define NFTLAB_VERSION "0.3"

/* Everything a command needs; owned by main(), no global state. */
struct ctx {
	struct nl nl;
	size_t max_batch;	/* --max-batch: largest transaction, bytes */
	int stats;		/* --stats: print transaction timings */
	int check;		/* -c: check only, nothing committed */
	const char *object;	/* "element", for usage texts */
	int argc;		/* the command's words: OBJECT VERB ARGS */
	char **argv;
	const char *op;		/* "element add" or "FILE:LINE: element add" */
	int refused;		/* input refused before sending: exit 2 */
	struct txn *script;	/* -f: every command appends to this one */
	uint64_t elems;		/* elements written, for --stats */
	int stdin_used;		/* -f - or --file - read standard input */
	struct setreg sets;	/* sets known: declared so far, or asked */
	struct setreg chains;	/* chains known (flags: 1 = base chain) */
	struct elem_srcmap srcmap;	/* where the transaction's elements
					 * came from */
	const char *where;	/* "" or "FILE:LINE: " of a script line */
	int argv_base;		/* index of OBJECT in main()'s argv; 0 in a
				 * script (words count from 1) */
	struct merge_reg merges;	/* auto-merge sets' intervals */
	/* -f: single-field interval sets whose elements the transaction
	 * changed (elem_open.h) */
	struct setreg ivl_changed;
	int ivl_all_changed;	/* ... every set: a table del, ruleset flush */
	struct open_reg opens;	/* the sets' intervals open to the top */
	int changed;		/* set sync changed the set: EXIT_CHANGED */
};

/* Exit status convention (nftlab.8, EXIT STATUS). */
enum {
	EXIT_OK = 0,
	EXIT_KERNEL = 1,	/* kernel or system refused; ruleset unchanged */
	EXIT_INPUT = 2,		/* input refused, nothing sent */
	EXIT_CHANGED = 3,	/* set sync: the set differed, now changed */
};

/* -f: the elements of si changed in this transaction, or it was deleted
 * (cmd_element.c) */
int ivl_changed_note(struct ctx *c, const struct setinfo *si, int deleted);
int cmd_table(struct ctx *c, int argc, char **argv);
int cmd_chain(struct ctx *c, int argc, char **argv);
int cmd_set(struct ctx *c, int argc, char **argv);	/* also map */
int cmd_set_sync(struct ctx *c, int argc, char **argv);	/* cmd_sync.c */
int cmd_element(struct ctx *c, int argc, char **argv);
int cmd_rule(struct ctx *c, int argc, char **argv);
int cmd_counter(struct ctx *c, int argc, char **argv);
int cmd_counters(struct ctx *c, int argc, char **argv);
int cmd_ruleset(struct ctx *c, int argc, char **argv);
int cmd_gen(struct ctx *c, int argc, char **argv);
int cmd_list(struct ctx *c, int argc, char **argv);
/* command table and per-command help (cmd_help.c) */
typedef int (*cmd_fn)(struct ctx *c, int argc, char **argv);
struct cmd_desc {
	const char *name;
	cmd_fn fn;
	int has_verb;
	int in_script;		/* allowed in an -f script */
	const char *usage;	/* "element add|del FAMILY ..." lines */
	const char *help;	/* option descriptions */
};
const struct cmd_desc *cmd_find(const char *name);
void cmd_print_help(const struct cmd_desc *d);
int cmd_wants_help(int argc, char **argv);
/* dispatch argv (OBJECT [VERB] ARGS) in c; op text built in opbuf */
int cmd_run(struct ctx *c, int argc, char **argv, const char *where,
	    char *opbuf, size_t oplen);

/* helpers shared by the commands (cmd_util.c) */
int cmd_refuse(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int cmd_usage(struct ctx *c);
int cmd_opt_err(struct ctx *c, int ch, char **argv);
struct option;
int cmd_getopt(int argc, char **argv, const char *optstring,
	       const struct option *opts, int *li);
int cmd_once(struct ctx *c, unsigned int *seen, int idx, const char *opt);
int cmd_fail(struct ctx *c, const char *what, int err);
int cmd_family(struct ctx *c, const char *name, uint16_t *family);
int cmd_name(struct ctx *c, const char *what, const char *name);
int cmd_set_ref(struct ctx *c, char **argv, const char *what,
		struct setinfo *si);
int cmd_u64(struct ctx *c, const char *opt, const char *s,
	    uint64_t min, uint64_t max, uint64_t *out);
int cmd_txn_begin(struct ctx *c, struct txn *own, struct txn **t);
void cmd_txn_abort(struct ctx *c, struct txn *t);
int cmd_commit(struct ctx *c, struct txn *t);
int cmd_setinfo(struct ctx *c, struct setinfo *si);
void cmd_reporter(struct ctx *c, struct txn_reporter *rep, const char *op);

#endif
