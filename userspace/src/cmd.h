/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_CMD_H
#define NFTLAB_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "nl.h"
#include "txn.h"

/* Everything a command needs; owned by main(), no global state. */
struct ctx {
	struct nl nl;
	size_t max_batch;	/* --max-batch: largest transaction, bytes */
	int stats;		/* --stats: print transaction timings */
	const char *op;		/* "element add", for messages */
};

int cmd_table(struct ctx *c, int argc, char **argv);
int cmd_chain(struct ctx *c, int argc, char **argv);
int cmd_set(struct ctx *c, int argc, char **argv);
int cmd_element(struct ctx *c, int argc, char **argv);
int cmd_rule(struct ctx *c, int argc, char **argv);
int cmd_counter(struct ctx *c, int argc, char **argv);
int cmd_counters(struct ctx *c, int argc, char **argv);
int cmd_ruleset(struct ctx *c, int argc, char **argv);
int cmd_gen(struct ctx *c, int argc, char **argv);

/* helpers shared by the commands (cmd_util.c) */
int cmd_usage(const struct ctx *c, const char *usage);
int cmd_fail(const struct ctx *c, const char *what, int err);
int cmd_family(const struct ctx *c, const char *name, uint16_t *family);
int cmd_u64(const struct ctx *c, const char *opt, const char *s,
	    uint64_t max, uint64_t *out);
int cmd_commit(struct ctx *c, struct txn *t);
int cmd_txn_begin(struct ctx *c, struct txn *t);

#endif
