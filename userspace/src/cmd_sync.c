// SPDX-License-Identifier: GPL-2.0
/*
 * set|map sync FAMILY TABLE SET --file FILE|- [--dry-run] [--retries N]
 *
 * The set's elements made those of FILE in one transaction (sync.h): the
 * generation ID is read first, then the set's description and the file,
 * then the set is dumped and compared, and the difference is committed
 * only if the ruleset is still at that generation.  Another commit in
 * between (any table of the network namespace) makes the kernel refuse
 * the batch as a whole; the attempt starts again from the dump (the file
 * is read once), at most --retries times, then the command fails with
 * nothing applied.
 *
 * Exit status: 0 the set was equal to the file (in sets with timeouts
 * the elements were renewed), 3 (EXIT_CHANGED) it differed and was
 * changed (--dry-run, -c: would be), 1 and 2 as for every command.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <linux/netfilter/nf_tables.h>

#include "cmd.h"
#include "sync.h"

enum { SYNC_RETRIES = 3, SYNC_RETRIES_MAX = 100 };

struct sync_opts {
	const char *file;
	int dry;
	uint64_t retries;
};

static int sync_parse_opts(struct ctx *c, int argc, char **argv,
			   struct sync_opts *o)
{
	static const struct option opts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "retries", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int seen = 0;
	int ch, li = 0, err = 0;

	o->retries = SYNC_RETRIES;
	optind = 0;
	opterr = 0;
	while (!err && (ch = cmd_getopt(argc, argv, "+:", opts, &li)) != -1) {
		switch (ch) {
		case 'f': o->file = optarg; break;
		case 'n': o->dry = 1; break;
		case 'r':
			err = cmd_u64(c, "--retries", optarg, 0,
				      SYNC_RETRIES_MAX, &o->retries);
			break;
		default: return cmd_opt_err(c, ch, argv);
		}
		if (!err)
			err = cmd_once(c, &seen, li, opts[li].name);
	}
	if (err)
		return err;
	if (optind != argc)
		return cmd_usage(c);
	if (!o->file)
		return cmd_refuse(c, "--file is required (the elements the "
				  "set is to hold, one per line; '-': standard "
				  "input)");
	return 0;
}

/* set sync of a map, or map sync of a set: as nft, no such object */
static int sync_kind_check(struct ctx *c, const struct setinfo *si)
{
	int is_map = !strcmp(c->object, "map");

	if (is_map == !!si->kt.dtype)
		return 0;
	return cmd_refuse(c, "%s/%s/%s is a %s (%s sync)",
			  nl_family_name(si->family), si->table, si->name,
			  is_map ? "set" : "map", is_map ? "set" : "map");
}

/*
 * Another attempt: the set as the kernel describes it now must be the one
 * the file was read for (a set deleted and declared again with another
 * type is refused).
 */
static int sync_same_set(struct ctx *c, const struct setinfo *si)
{
	struct setinfo now = *si;
	struct nl_err e;
	int err = setinfo_get(&c->nl, &now, &e);

	if (err) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			strerror(-err));
		return err;
	}
	if (now.flags != si->flags || now.timeout_ms != si->timeout_ms ||
	    memcmp(&now.kt, &si->kt, sizeof(now.kt))) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: the set was declared "
			"again with other flags, type or timeout meanwhile: "
			"nothing applied\n", c->op, nl_family_name(si->family),
			si->table, si->name);
		return -ESTALE;
	}
	return 0;
}

static void sync_stats(const struct sync_job *j, unsigned int attempts)
{
	struct rusage ru;
	const struct sync_count *n = &j->n;

	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "nftlab: %s: stats: file %llu elements (%zu in the table after "
		"merging and duplicates, 0: none), read %.3f s; set %llu elements, "
		"dump and compare %.3f s; -%llu +%llu, %llu timeouts changed, "
		"%llu renewed; write %.3f s, %llu bytes, kernel %.3f s, "
		"replies %.3f s; %u attempt(s); peak RSS %ld kB\n",
		j->c->op, (unsigned long long)j->file_elems, j->tab.n,
		(double)j->t_read / 1e9, (unsigned long long)n->set,
		(double)j->t_dump / 1e9, (unsigned long long)n->del,
		(unsigned long long)n->add, (unsigned long long)n->retime,
		(unsigned long long)n->renew, (double)j->t_write / 1e9,
		(unsigned long long)j->batch_bytes, (double)j->t_kernel / 1e9,
		(double)j->t_replies / 1e9, attempts, ru.ru_maxrss);
}

/*
 * Cold start: a set that holds nothing gets the file as element add
 * --file would load it (no table: as fast as the bulk load).  Regular
 * files only: when another commit comes in between, the file is read
 * again for the normal path.  1: done; 0: not taken, or taken and
 * refused by the generation check (then the generation is read again).
 */
static int sync_cold_maybe(struct sync_job *j, const struct sync_opts *o,
			   uint32_t *genid)
{
	struct stat st;
	int err;

	/* a map's single-field intervals are checked for overlaps first */
	if (o->dry || (j->kind == SYNC_SINGLE && !j->merge) ||
	    stat(o->file, &st) || !S_ISREG(st.st_mode) ||
	    sync_set_empty(j->si) != 1)
		return 0;
	err = sync_cold(j, o->file, *genid);
	if (err != -ERESTART)
		return err ? err : 1;
	if (!o->retries)
		return err;
	j->file_elems = 0;
	return sync_genid(&j->c->nl, genid);
}

static int sync_run(struct ctx *c, struct setinfo *si,
		    const struct sync_opts *o)
{
	struct sync_job j;
	unsigned int attempt = 0;
	uint32_t genid;
	uint64_t t0;
	int err;

	/* first the generation: the set and the file are read against it */
	err = sync_genid(&c->nl, &genid);
	if (err) {
		fprintf(stderr, "nftlab: %s: the ruleset's generation "
			"(NFT_MSG_GETGEN): %s\n", c->op, strerror(-err));
		return err;
	}
	err = cmd_setinfo(c, si);
	if (!err)
		err = sync_kind_check(c, si);
	if (err)
		return err;
	sync_job_init(&j, c, si);
	j.dry = o->dry;
	err = sync_cold_maybe(&j, o, &genid);
	if (err == 1) {
		err = 0;
		goto done;
	}
	t0 = sync_now_ns();
	if (!err)
		err = sync_file_read(&j, o->file);
	j.t_read = sync_now_ns() - t0;
	while (!err) {
		err = sync_diff(&j, genid, attempt < o->retries);
		if (err != -ERESTART || attempt++ >= o->retries)
			break;
		err = sync_genid(&c->nl, &genid);
		if (!err)
			err = sync_same_set(c, si);
	}
done:
	if (!err)
		c->changed = j.n.del || j.n.add || j.n.retime;
	if (c->stats)
		sync_stats(&j, attempt + (err != -ERESTART));
	sync_tab_free(&j.tab);
	return err;
}

int cmd_set_sync(struct ctx *c, int argc, char **argv)
{
	struct sync_opts o = { 0 };
	struct setinfo si = { 0 };
	int err;

	if (c->script)
		return cmd_refuse(c, "not allowed in a script (it reads the "
				  "set from the kernel and commits on its own)");
	if (argc < 4)
		return cmd_usage(c);
	err = cmd_set_ref(c, argv, c->object, &si);
	if (!err)
		err = sync_parse_opts(c, argc - 3, argv + 3, &o);
	if (err)
		return err;
	return sync_run(c, &si, &o);
}
