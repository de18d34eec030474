// SPDX-License-Identifier: GPL-2.0
/*
 * element add|create|del|get FAMILY TABLE SET [ELEMENT]... [--file FILE]
 *         [--gen FIELDS --count N [--start N] [--range-size N] [--proto P]]
 *
 * Elements are streamed from the command line, a file or the generator
 * into the transaction, nothing per element is kept: each is parsed,
 * checked (elem_check.h) and only then written (elem_write.h), through
 * elem_sink.h.  Parse and check errors abort before anything is sent;
 * kernel errors are mapped back to the element through the extended ACK
 * offset.  Auto-merge sets collect the elements instead and merge them
 * (elem_merge.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter/nf_tables.h>

#include "cmd.h"
#include "elem.h"
#include "elem_list.h"
#include "elem_lookup.h"
#include "elem_merge.h"
#include "elem_sink.h"
#include "gen.h"
#include "linein.h"
#include "setinfo.h"

struct elem_opts {
	const char *file, *gen, *proto;
	uint64_t start, count, range;
	char **pos;		/* positional elements, in order */
	int *posword;		/* ... and their word in the command (OBJECT 0) */
	size_t npos;
};

/*
 * where: "FILE:LINE" context for messages, built only when needed; id and
 * line also say where the element came from in c->srcmap (line: the word
 * of a command-line element, the number of a generated one).
 */
struct elem_src {
	const char *file;	/* NULL: command line */
	unsigned long line;
	uint32_t id;		/* source in c->srcmap */
};

/* The element about to be written comes from src. */
static inline int elem_note_src(struct elem_sink *s,
				const struct elem_src *src)
{
	return elem_src_note(s->w.map, s->w.nelem, src->id, src->line);
}

/*
 * An element that was refused (-EINVAL: exit status 2) or could not be
 * checked because a query of the set failed (OPEN_GUARD_QUERY_FAILED:
 * exit status 1); why says which.  Either way nothing is sent.
 */
static int elem_failed(int err)
{
	return err == -EINVAL || err == OPEN_GUARD_QUERY_FAILED;
}

static void elem_bad(struct ctx *c, const struct setinfo *si,
		     const struct elem_src *src, const char *text,
		     const char *why, int err)
{
	char where[QUOTE_MAX + 32] = "";
	struct qbuf q, qt, qw;

	if (src && src->file && src->line)
		snprintf(where, sizeof(where), "%s:%lu: ", quote(&q, src->file),
			 src->line);
	else if (src && src->file)
		snprintf(where, sizeof(where), "%s: ", quote(&q, src->file));
	fprintf(stderr, "nftlab: %s: %s/%s/%s: %s%s: %s\n", c->op,
		nl_family_name(si->family), si->table, si->name, where,
		quote(&qt, text), quote(&qw, why));
	if (err == -EINVAL)
		c->refused = 1;
}

static int elem_one(struct ctx *c, struct elem_sink *s,
		    const struct elem_src *src, const char *text)
{
	struct elem el;
	char why[256];
	int err;

	err = elem_parse(&el, &s->w.si->kt, text, why, sizeof(why));
	if (!err)
		err = elem_note_src(s, src);
	if (!err)
		err = sink_add(s, &el, why, sizeof(why));
	if (elem_failed(err))
		elem_bad(c, s->w.si, src, text, why, err);
	return err;
}

/*
 * One line of --file.  Most lines need no trimming: a line the fast path
 * of the parser accepts as it is has no comment, no blank at either end
 * and no trailing ',', so elem_trim() would leave it unchanged.
 */
static int elem_line(struct ctx *c, struct elem_sink *s,
		     const struct elem_src *src, char *line)
{
	const char *text;
	struct elem el;
	char why[256];
	int err;

	if (elem_parse_simple(&el, &s->w.si->kt, line) == 0) {
		err = elem_note_src(s, src);
		if (!err)
			err = sink_add(s, &el, why, sizeof(why));
		if (elem_failed(err))
			elem_bad(c, s->w.si, src, line, why, err);
		return err;
	}
	text = elem_trim(line);
	return *text ? elem_one(c, s, src, text) : 0;
}

/*
 * Lines the parser's fast path takes as they are (most lines of a bulk
 * load) are parsed in the input buffer: such a line is printable text
 * ending in '\n', which linein_next() would hand out unchanged, so the
 * line check and the separate search for its end are left out.  Every
 * other line goes through linein_next() and elem_line().
 */
static int elem_from_file(struct ctx *c, struct elem_sink *s,
			  const char *path)
{
	struct elem_src src = { .file = path, .line = 0 };
	const struct keytype *kt = &s->w.si->kt;
	struct linein in;
	struct elem el;
	char *line, why[256];
	struct qbuf q;
	int err;

	err = linein_open(&in, c->op, path, c->stdin_used);
	if (!err && in.is_stdin)
		c->stdin_used = 1;
	src.file = in.path;
	if (!err)
		err = elem_src_add(s->w.map, ELEM_SRC_FILE, quote(&q, in.path),
				   &src.id);
	while (!err) {
		size_t len = linein_avail(&in, &line);

		if (len && (len = elem_scan_line(&el, kt, line))) {
			line = linein_take(&in, len);
			err = elem_src_note(s->w.map, s->w.nelem, src.id,
					    in.lineno);
			if (!err)
				err = sink_add(s, &el, why, sizeof(why));
			if (elem_failed(err)) {
				src.line = in.lineno;
				elem_bad(c, s->w.si, &src, line, why, err);
			}
			continue;
		}
		err = linein_next(&in, &line);
		if (err <= 0)
			break;
		src.line = in.lineno;
		err = elem_line(c, s, &src, line);
	}
	if (in.err)
		c->refused = 1;
	linein_close(&in);
	return err;
}

/*
 * A key alone into a hash set, from values whose text always parses: the
 * key bytes straight from the generator, no text.
 */
static int gen_put_keys(struct elem_sink *s, struct gen *g, int *gen_ret)
{
	uint8_t key[KT_MAX_KEY];
	int err;

	while ((*gen_ret = gen_next_key(g, &s->w.si->kt, key)) > 0) {
		/* a key alone into a hash set: nothing to check */
		err = ew_put_key(&s->w, key);
		s->w.nelem++;
		if (err)
			return err;
	}
	return 0;
}

/* The generated elements' source: "--gen element N" from here on. */
static int gen_source(struct ctx *c, struct elem_sink *s, uint32_t *id)
{
	int err = elem_src_add(s->w.map, ELEM_SRC_GEN, c->where, id);

	return err ? err : elem_src_run_start(s->w.map, s->w.nelem, *id, 1);
}

static int elem_from_gen(struct ctx *c, struct elem_sink *s,
			 const struct elem_opts *o)
{
	struct elem_src src = { .file = "generated", .line = 0 };
	char text[GEN_TEXT_MAX], why[160];
	struct qbuf q;
	struct gen g;
	int ret = 0;

	if (gen_init(&g, o->gen, o->start, o->count, o->range, o->proto, why,
		     sizeof(why)))
		return cmd_refuse(c, "--gen '%s': %s", quote(&q, o->gen), why);
	if (!gen_matches(&g, &s->w.si->kt))
		return cmd_refuse(c, "--gen '%s' does not match the set's key "
				  "type", quote(&q, o->gen));
	ret = gen_source(c, s, &src.id);
	if (ret)
		return ret;
	if (s->w.key_only && gen_keys(&g)) {
		int err = gen_put_keys(s, &g, &ret);

		if (err)
			return err;
	}
	while (ret >= 0 && (ret = gen_next(&g, text, sizeof(text))) > 0) {
		struct elem el;

		src.line++;
		/* elem_one() without its full parser's set-up, as elem_line() */
		if (elem_parse_simple(&el, &s->w.si->kt, text) == 0) {
			ret = elem_note_src(s, &src);
			if (!ret)
				ret = sink_add(s, &el, why, sizeof(why));
			if (elem_failed(ret))
				elem_bad(c, s->w.si, &src, text, why, ret);
		} else {
			ret = elem_one(c, s, &src, text);
		}
		if (ret)
			return ret;
	}
	if (ret < 0)
		fprintf(stderr, "nftlab: %s: --gen: element %llu: %s\n", c->op,
			(unsigned long long)g.done + 1, strerror(-ret));
	return ret;
}

/* elem_parse_opts() sees the command from SET on: OBJECT VERB FAMILY TABLE */
enum { ELEM_ARGS_WORD = 4 };

static int elem_parse_opts(struct ctx *c, int argc, char **argv,
			   struct elem_opts *o)
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
	unsigned int seen = 0;
	int ch, li = 0, err = 0;

	o->start = 1;
	o->range = 0;
	o->pos = calloc((size_t)argc + 1, sizeof(*o->pos));
	o->posword = calloc((size_t)argc + 1, sizeof(*o->posword));
	if (!o->pos || !o->posword)
		return -ENOMEM;
	optind = 0;
	opterr = 0;
	/* "-": positionals come back in order as 1, "--" ends options */
	while (!err && (ch = cmd_getopt(argc, argv, "-:", opts, &li)) != -1) {
		switch (ch) {
		case 1:
			o->posword[o->npos] = ELEM_ARGS_WORD + optind - 1;
			o->pos[o->npos++] = optarg;
			continue;
		case 'f': o->file = optarg; break;
		case 'g': o->gen = optarg; break;
		case 'p': o->proto = optarg; break;
		case 's':
			err = cmd_u64(c, "--start", optarg, 0, UINT32_MAX,
				      &o->start);
			break;
		case 'n':
			err = cmd_u64(c, "--count", optarg, 1, UINT32_MAX,
				      &o->count);
			break;
		case 'r':
			err = cmd_u64(c, "--range-size", optarg, 0, UINT32_MAX,
				      &o->range);
			break;
		default:
			return cmd_opt_err(c, ch, argv);
		}
		if (!err)
			err = cmd_once(c, &seen, li, opts[li].name);
	}
	if (err)
		return err;
	while (optind < argc) {
		o->posword[o->npos] = ELEM_ARGS_WORD + optind;
		o->pos[o->npos++] = argv[optind++];
	}
	if (!o->gen && (seen & ~3U)) {
		for (int i = 2; opts[i].name; i++)
			if (seen & (1U << i))
				return cmd_refuse(c, "--%s needs --gen",
						  opts[i].name);
	}
	if (o->gen && !(seen & (1U << 3)))
		return cmd_refuse(c, "--gen needs --count");
	return 0;
}

static char *trim_blanks(char *s)
{
	char *end;

	s += strspn(s, " \t");
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/* Where the words of the command line are in an nft element list. */
struct arg_list {
	int depth;	/* inside '{ ... }' */
	int after_elem;	/* the last thing was an element: ',' may come */
};

/*
 * One word of the command line: an element, or a piece of an nft element
 * list: '{' and '}' around it, elements separated by ',' (a trailing ','
 * allowed, as nft allows it), e.g. '{ 10.0.0.1, 10.0.0.2, }' or the shell
 * words {  10.0.0.1,  10.0.0.2  }.  As nft reads its words joined by
 * blanks, a ',' may also be a word of its own ({ 10.0.0.1 , 10.0.0.2 })
 * or start one: the list goes on across words (*l).
 */
static int elem_arg_word(struct ctx *c, struct elem_sink *s,
			 const struct elem_src *src, char *word,
			 struct arg_list *l)
{
	char *p = trim_blanks(word), *end, *comma;
	int close = 0, err = 0;

	if (*p == '{') {
		if (l->depth++)
			return cmd_refuse(c, "'{' inside '{ ... }'");
		l->after_elem = 0;
		p = trim_blanks(p + 1);
	}
	end = p + strlen(p);
	if (end > p && end[-1] == '}') {
		*--end = '\0';
		close = 1;
		p = trim_blanks(p);
	}
	while (!err && *p) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		p = trim_blanks(p);
		if (*p) {
			err = elem_one(c, s, src, p);
			l->after_elem = 1;
		}
		if (!err && comma && !l->after_elem)
			return cmd_refuse(c, "empty element before ','");
		if (comma)
			l->after_elem = 0;
		p = comma ? trim_blanks(comma + 1) : p + strlen(p);
	}
	if (!err && close && !l->depth--)
		return cmd_refuse(c, "'}' without '{'");
	if (close)
		l->after_elem = 0;	/* no ',' after '}' */
	return err;
}

/* Positional elements, in order. */
static int elem_from_args(struct ctx *c, struct elem_sink *s,
			  const struct elem_opts *o)
{
	struct elem_src src = { .file = NULL };
	uint64_t before = s->w.nelem;
	struct arg_list l = { 0 };

	if (o->npos && elem_src_add(s->w.map, ELEM_SRC_ARGS, c->where, &src.id))
		return -ENOMEM;
	for (size_t i = 0; i < o->npos; i++) {
		char *word = strdup(o->pos[i]);
		int err;

		if (!word)
			return -ENOMEM;
		/* "argument N" of main()'s argv, or "word N" of a script line */
		src.line = (unsigned long)o->posword[i] +
			   (c->script ? 1 : (unsigned long)c->argv_base);
		err = elem_arg_word(c, s, &src, word, &l);
		free(word);
		if (err)
			return err;
	}
	if (l.depth)
		return cmd_refuse(c, "'{' without '}'");
	if (o->npos && s->w.nelem == before)
		return cmd_refuse(c, "no elements in '{ }'");
	return 0;
}

static int elem_get(struct ctx *c, struct setinfo *si,
		    const struct elem_opts *o);

/*
 * A script changed the elements of a single-field interval set (any set,
 * if deleted: its type may not be known): an open interval given later in
 * the transaction cannot be checked against the set as committed
 * (elem_open.h).
 */
int ivl_changed_note(struct ctx *c, const struct setinfo *si, int deleted)
{
	struct setinfo known;

	if (!c->script ||
	    (!deleted && (!setinfo_is_single_interval(si) ||
			  elem_merge_uses(si))) ||
	    setreg_find(&c->ivl_changed, si->family, si->table, si->name,
			&known) == 1)
		return 0;
	return setreg_add(&c->ivl_changed, si);
}

static int elem_write(struct ctx *c, struct setinfo *si, uint16_t type,
		      uint16_t flags, const struct elem_opts *o)
{
	struct elem_sink s;
	struct txn own, *t;
	struct ivl merge;
	size_t kept;
	int err;

	err = cmd_txn_begin(c, &own, &t);
	if (err)
		return err;
	ivl_init(&merge, si->kt.key_len);
	/* auto-merge: collected, merged, then written */
	sink_init(&s, c, t, si, type, flags,
		  elem_merge_uses(si) ? &merge : NULL);
	err = elem_from_args(c, &s, o);
	if (!err && o->file)
		err = elem_from_file(c, &s, o->file);
	if (!err && o->gen)
		err = elem_from_gen(c, &s, o);
	if (!err && s.merge) {
		/* the merged intervals are numbered after the collected ones */
		c->srcmap.next = s.w.nelem;
		err = elem_merge_write(c, t, si, type, flags, &merge);
		s.w.nelem = c->srcmap.next;
	}
	kept = merge.n;		/* for the message below */
	ivl_free(&merge);
	if (!err)
		err = ew_close(&s.w);
	if (!err)
		err = ivl_changed_note(c, si, 0);
	c->elems += s.w.count;
	c->srcmap.next = s.w.nelem;
	if (err == -EMSGSIZE) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: transaction exceeds "
			"--max-batch %zu bytes at element %llu%s, nothing "
			"sent: %s\n", c->op, nl_family_name(si->family),
			si->table, si->name, c->max_batch,
			(unsigned long long)(c->elems + kept) + 1, s.merge ?
			" (with the intervals kept for auto-merge)" : "",
			strerror(EMSGSIZE));
		c->refused = 1;
	}
	if (err) {
		cmd_txn_abort(c, t);
		return err;
	}
	return cmd_commit(c, t);
}

/* element list FAMILY TABLE SET [--json] */
static int elem_list_cmd(struct ctx *c, int argc, char **argv)
{
	struct setinfo si = { 0 };
	int json = 0, err;

	if (argc == 5 && !strcmp(argv[4], "--json"))
		json = 1;
	else if (argc != 4)
		return cmd_usage(c);
	err = cmd_set_ref(c, argv, "set", &si);
	if (err)
		return err;
	err = cmd_setinfo(c, &si);
	return err ? err : elem_list(c, &si, json);
}

int cmd_element(struct ctx *c, int argc, char **argv)
{
	struct elem_opts o = { 0 };
	struct setinfo si = { 0 };
	int err;
	uint16_t type, flags = 0;

	if (argc < 4)
		return cmd_usage(c);
	if (!strcmp(argv[0], "add") || !strcmp(argv[0], "create")) {
		/* as nft: add takes elements already there, create does not */
		type = NFT_MSG_NEWSETELEM;
		flags = NLM_F_CREATE | (argv[0][0] == 'c' ? NLM_F_EXCL : 0);
	} else if (!strcmp(argv[0], "del")) {
		type = NFT_MSG_DELSETELEM;
	} else if (!strcmp(argv[0], "get") || !strcmp(argv[0], "list")) {
		type = NFT_MSG_GETSETELEM;
		if (c->script)
			return cmd_refuse(c, "not allowed in a script (it does "
					  "not change the ruleset)");
		if (argv[0][0] == 'l')
			return elem_list_cmd(c, argc, argv);
	} else {
		return cmd_usage(c);
	}
	err = cmd_set_ref(c, argv, "set", &si);
	if (err)
		return err;
	err = elem_parse_opts(c, argc - 3, argv + 3, &o);
	if (!err && type == NFT_MSG_GETSETELEM && (o.file || o.gen))
		err = cmd_refuse(c, "element get takes literal elements only");
	if (!err && !o.npos && !o.file && !o.gen)
		err = cmd_refuse(c, "no elements (give ELEMENT, --file or --gen)");
	if (!err)
		err = cmd_setinfo(c, &si);
	if (!err && type == NFT_MSG_GETSETELEM)
		err = elem_get(c, &si, &o);
	else if (!err)
		err = elem_write(c, &si, type, flags, &o);
	free(o.pos);
	free(o.posword);
	return err;
}

static int elem_get_one(struct ctx *c, struct setinfo *si, const char *text)
{
	uint8_t start[KT_MAX_KEY], end[KT_MAX_KEY];
	struct nl_err ne;
	struct elem el;
	char why[256], out[512];
	struct qbuf q;
	int err;

	err = elem_parse(&el, &si->kt, text, why, sizeof(why));
	if (err) {
		elem_bad(c, si, NULL, text, why, -EINVAL);
		return err;
	}
	err = elem_lookup(&c->nl, si, el.key, el.key_end, start, end, &ne);
	if (err == -ENOENT && el.is_range && !ne.msg[0] &&
	    setinfo_is_single_interval(si))
		snprintf(ne.msg, sizeof(ne.msg), "no element holds all of it");
	if (err) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s: %s%s%s%s\n", c->op,
			nl_family_name(si->family), si->table, si->name,
			quote(&q, text), strerror(-err), ne.msg[0] ? " (" : "", ne.msg,
			ne.msg[0] ? ")" : "");
		return err;
	}
	if (elem_format(&si->kt, start, end, out, sizeof(out)))
		return -ENOSPC;
	printf("%s\n", out);
	return 0;
}

static int elem_get(struct ctx *c, struct setinfo *si,
		    const struct elem_opts *o)
{
	int ret = 0;

	for (size_t i = 0; i < o->npos; i++) {
		int err = elem_get_one(c, si, o->pos[i]);

		if (err && !ret)
			ret = err;
	}
	return ret;
}
