// SPDX-License-Identifier: GPL-2.0
/*
 * set sync: the file's elements into the table (sync.h, step 1).  Lines
 * are read and parsed as element add --file reads them (linein.c, the
 * parsers' fast path first); every element is checked against the set
 * before anything is sent.  A key given twice is one element, unless
 * its data or timeout differ: refused.  Single-field interval sets get
 * their intervals merged (ivl_merge(), as --auto-merge does); a map's
 * intervals cannot be merged, and overlapping ones are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/netfilter/nf_tables.h>

#include "chain_target.h"
#include "cmd.h"
#include "ivl.h"
#include "linein.h"
#include "sync.h"

int sync_job_init(struct sync_job *j, struct ctx *c, const struct setinfo *si)
{
	const struct keytype *kt = &si->kt;
	uint32_t dlen = 0;

	memset(j, 0, sizeof(*j));
	j->c = c;
	j->si = si;
	j->kind = setinfo_is_concat_interval(si) ? SYNC_CONCAT :
		  setinfo_is_single_interval(si) ? SYNC_SINGLE : SYNC_PLAIN;
	j->merge = j->kind == SYNC_SINGLE && !kt->dtype;
	if (kt->dtype == KT_DATA_VERDICT)
		dlen = 8;	/* verdict, chain number */
	else if (kt->dtype)
		dlen = kt->dlen;
	sync_tab_init(&j->tab, j->kind == SYNC_PLAIN ? kt->key_len :
		      2 * kt->key_len, dlen, !!(si->flags & NFT_SET_TIMEOUT));
	return 0;
}

void sync_key(const struct sync_job *j, const uint8_t *key,
	      const uint8_t *key_end, uint8_t *out)
{
	uint32_t len = j->si->kt.key_len;

	memcpy(out, key, len);
	if (j->kind != SYNC_PLAIN)
		memcpy(out + len, key_end, len);
}

int sync_data_pack(struct sync_job *j, const struct elem_data *d,
		   uint8_t *out, int *new_chain)
{
	uint32_t num = 0;
	int err;

	*new_chain = 0;
	if (j->si->kt.dtype != KT_DATA_VERDICT) {
		memcpy(out, d->value, j->tab.dlen);
		return 0;
	}
	if (d->verdict == NFT_JUMP || d->verdict == NFT_GOTO) {
		err = sync_tab_chain(&j->tab, d->chain, &num, new_chain);
		if (err)
			return err;
	}
	memcpy(out, &d->verdict, 4);
	memcpy(out + 4, &num, 4);
	return 0;
}

void sync_data_unpack(const struct sync_job *j, const uint8_t *in,
		      struct elem_data *d)
{
	uint32_t num;

	if (j->si->kt.dtype != KT_DATA_VERDICT) {
		memcpy(d->value, in, j->tab.dlen);
		return;
	}
	memcpy(&d->verdict, in, 4);
	memcpy(&num, in + 4, 4);
	snprintf(d->chain, sizeof(d->chain), "%s",
		 sync_tab_chain_name(&j->tab, num));
}

void sync_format(const struct sync_job *j, const uint8_t *key,
		 const uint8_t *key_end, uint64_t tmo,
		 const struct elem_data *d, char *buf, size_t len)
{
	const struct keytype *kt = &j->si->kt;
	char text[600], data[300] = "", t[64] = "";

	if (elem_format(kt, key, key_end ? key_end : key, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	if (d && elem_data_format(kt, d, data, sizeof(data)))
		snprintf(data, sizeof(data), "?");
	if (tmo && tmo != j->si->timeout_ms)
		timeout_format(tmo, t, sizeof(t));
	snprintf(buf, len, "%s%s%s%s%s", text, *t ? " timeout " : "", t,
		 d ? " : " : "", data);
}

/* Reading state: the current file and line, for messages. */
struct reader {
	struct sync_job *j;
	const char *path;
	unsigned long line;
	struct ivl in;		/* merge: the file's intervals */
	uint8_t key[2 * KT_MAX_KEY];
	uint8_t data[KT_MAX_KEY];
};

static int bad(struct reader *r, const char *text, const char *why)
{
	struct ctx *c = r->j->c;
	const struct setinfo *si = r->j->si;
	struct qbuf q, qt, qw;

	fprintf(stderr, "nftlab: %s: %s/%s/%s: %s:%lu: %s: %s\n", c->op,
		nl_family_name(si->family), si->table, si->name,
		quote(&q, r->path), r->line, quote(&qt, text), quote(&qw, why));
	c->refused = 1;
	return -EINVAL;
}

/* What element add would refuse in this set, before anything is sent. */
static const char *elem_unfit(const struct sync_job *j, const struct elem *el)
{
	const struct setinfo *si = j->si;

	if (si->kt.dtype && !el->has_data)
		return "map element without ' : DATA'";
	if (!si->kt.dtype && el->has_data)
		return "' : DATA' in a set (map sync is for maps)";
	if (el->is_range && j->kind == SYNC_PLAIN)
		return "ranges need a set with flags interval";
	if (el->timeout_ms && !(si->flags & NFT_SET_TIMEOUT))
		return "element timeout in a set without the timeout flag "
		       "(set add --flags timeout, or --timeout)";
	if (el->timeout_ms && j->merge)
		return "element timeout in an interval set: set sync merges "
		       "its intervals (give the set a --timeout)";
	return NULL;
}

static int put_elem(struct reader *r, const struct elem *el, const char *text)
{
	struct sync_job *j = r->j;
	const char *why = elem_unfit(j, el);
	char chain_why[256];
	uint8_t *rec;
	int err, new_chain = 0;

	if (why)
		return bad(r, text, why);
	j->file_elems++;
	if (j->merge)
		return ivl_add(&r->in, el->key, el->key_end);
	if (j->tab.dlen) {
		err = sync_data_pack(j, &el->data, r->data, &new_chain);
		if (err)
			return err;
	}
	if (new_chain) {
		err = chain_target_check(j->c, j->si->family, j->si->table,
					 el->data.chain, chain_why,
					 sizeof(chain_why));
		if (err == -EINVAL)
			return bad(r, text, chain_why);
		if (err)
			return err;
	}
	if (j->direct)
		return sync_put_direct(j, el->key, el->key_end,
				       el->has_data ? &el->data : NULL,
				       el->timeout_ms);
	sync_key(j, el->key, el->key_end, r->key);
	err = sync_tab_put(&j->tab, r->key, &rec);
	if (err < 0)
		return err;
	if (err == 0) {
		memcpy(sync_rec_data(&j->tab, rec), r->data, j->tab.dlen);
		sync_rec_set_tmo(&j->tab, rec, el->timeout_ms);
		return 0;
	}
	if (memcmp(sync_rec_data(&j->tab, rec), r->data, j->tab.dlen))
		return bad(r, text, "given earlier in the file with other data");
	if (sync_rec_tmo(&j->tab, rec) != el->timeout_ms)
		return bad(r, text, "given earlier in the file with another "
			   "timeout");
	return 0;
}

static int one_line(struct reader *r, char *line)
{
	const char *text;
	struct elem el;
	char why[256];

	if (elem_parse_simple(&el, &r->j->si->kt, line) == 0)
		return put_elem(r, &el, line);
	text = elem_trim(line);
	if (!*text)
		return 0;
	if (elem_parse(&el, &r->j->si->kt, text, why, sizeof(why)))
		return bad(r, text, why);
	return put_elem(r, &el, text);
}

/* As element add --file: lines the fast path takes are parsed in place. */
static int read_lines(struct reader *r, struct linein *in)
{
	const struct keytype *kt = &r->j->si->kt;
	struct elem el;
	char *line;
	int err = 0;

	while (!err) {
		size_t len = linein_avail(in, &line);

		if (len && (len = elem_scan_line(&el, kt, line))) {
			line = linein_take(in, len);
			r->line = in->lineno;
			err = put_elem(r, &el, line);
			continue;
		}
		err = linein_next(in, &line);
		if (err <= 0)
			break;
		r->line = in->lineno;
		err = one_line(r, line);
	}
	return err;
}

static int ivl_by_start(const void *a, const void *b, void *len)
{
	return memcmp(a, b, *(const uint32_t *)len);
}

/* A map's intervals, by start: each must end before the next starts. */
static int check_overlap(struct reader *r)
{
	struct sync_job *j = r->j;
	uint32_t len = j->si->kt.key_len;
	size_t n = j->tab.n;
	uint8_t *keys = malloc(n ? n * 2 * len : 1);
	char a[300], b[300];
	int err = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		memcpy(keys + i * 2 * len, sync_rec(&j->tab, i), 2 * len);
	qsort_r(keys, n, 2 * len, ivl_by_start, &len);
	for (size_t i = 1; !err && i < n; i++) {
		const uint8_t *p = keys + (i - 1) * 2 * len, *k = keys + i * 2 * len;

		if (memcmp(p + len, k, len) < 0)
			continue;
		sync_format(j, p, p + len, 0, NULL, a, sizeof(a));
		sync_format(j, k, k + len, 0, NULL, b, sizeof(b));
		r->line = 0;
		fprintf(stderr, "nftlab: %s: %s/%s/%s: %s: %s and %s overlap "
			"(a map's intervals are not merged)\n", j->c->op,
			nl_family_name(j->si->family), j->si->table,
			j->si->name, r->path, a, b);
		j->c->refused = 1;
		err = -EINVAL;
	}
	free(keys);
	return err;
}

/* merge: the file's intervals merged, into the table */
static int merge_in(struct reader *r)
{
	struct sync_job *j = r->j;
	uint32_t len = j->si->kt.key_len;
	struct ivl cur, del, put;
	uint8_t *rec;
	int err;

	ivl_init(&cur, len);
	ivl_init(&del, len);
	ivl_init(&put, len);
	err = ivl_merge(&cur, &r->in, &j->si->kt, &del, &put);
	for (size_t i = 0; !err && j->direct && i < put.n; i++)
		err = sync_put_direct(j, ivl_start(&put, i), ivl_end(&put, i),
				      NULL, 0);
	if (!err && !j->direct)
		err = sync_tab_expect(&j->tab, put.n);
	for (size_t i = 0; !err && !j->direct && i < put.n; i++) {
		sync_key(j, ivl_start(&put, i), ivl_end(&put, i), r->key);
		err = sync_tab_put(&j->tab, r->key, &rec);
		err = err > 0 ? 0 : err;
	}
	ivl_free(&cur);
	ivl_free(&del);
	ivl_free(&put);
	return err;
}

/*
 * The table sized for the lines a regular file holds, about one per 12
 * bytes (an IPv4 address and its newline): growing the index as it
 * fills would hash every key again at each doubling.
 */
static int expect_lines(struct sync_job *j, const struct linein *in)
{
	struct stat st;

	if (fstat(in->fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	return sync_tab_expect(&j->tab, (size_t)(st.st_size / 12));
}

int sync_file_read(struct sync_job *j, const char *path)
{
	struct reader *r = calloc(1, sizeof(*r));
	struct linein in;
	int err;

	if (!r)
		return -ENOMEM;
	r->j = j;
	ivl_init(&r->in, j->si->kt.key_len);
	err = linein_open(&in, j->c->op, path, j->c->stdin_used);
	if (!err && in.is_stdin)
		j->c->stdin_used = 1;
	r->path = in.path;
	if (!err && !j->merge && !j->direct)
		err = expect_lines(j, &in);
	if (!err)
		err = read_lines(r, &in);
	if (in.err)
		j->c->refused = 1;
	linein_close(&in);
	if (!err && j->merge)
		err = merge_in(r);
	else if (!err && j->kind == SYNC_SINGLE && !j->direct)
		err = check_overlap(r);	/* sync_cold(): the kernel checks */
	ivl_free(&r->in);
	free(r);
	return err;
}
