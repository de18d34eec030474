// SPDX-License-Identifier: GPL-2.0
/*
 * set sync, one attempt (sync.h, steps 2 and 3): the set's elements are
 * dumped once and each is looked up in the file's table as it arrives;
 * what the file does not hold is deleted right away (DELSETELEM into the
 * batch), nothing of the dump is kept.  Then the table is walked once:
 * new and replaced elements are added, and in sets with timeouts the
 * elements that stay are added again with their expiration: on 6.12 and
 * later kernels an add without NLM_F_EXCL of an element the set holds,
 * with NFTA_SET_ELEM_EXPIRATION, renews it in place (nft_add_set_elem(),
 * "set element timeout update"; an add without EXPIRATION and with the
 * same timeout changes nothing, which is why it is sent).
 *
 * All deletions come before all additions in the batch: an interval that
 * replaces overlapping ones must not meet them in the kernel's tree.  A
 * map element whose data changes, and an element whose timeout drops to
 * none, is deleted and added again in the same batch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <libnftnl/common.h>

#include "cmd.h"
#include "elem_enc.h"
#include "elem_list.h"
#include "sync.h"

/* Elements into NEWSETELEM/DELSETELEM messages of up to 60 KiB. */
struct sync_writer {
	struct txn *t;		/* NULL: dry run, nothing written */
	const struct setinfo *si;
	uint16_t type;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
};

static int sw_close(struct sync_writer *w)
{
	if (!w->nlh)
		return 0;
	mnl_attr_nest_end(w->nlh, w->nest);
	w->nlh = NULL;
	return txn_msg_end(w->t);
}

static int sw_put(struct sync_writer *w, uint16_t type,
		  const struct elem_attrs *a)
{
	int err;

	if (!w->t)
		return 0;
	if (w->nlh && w->type != type) {
		err = sw_close(w);
		if (err)
			return err;
	}
	if (!w->nlh) {
		w->type = type;
		w->nlh = txn_msg_begin(w->t, type, w->si->family,
				       type == NFT_MSG_NEWSETELEM ?
				       NLM_F_CREATE : 0);
		mnl_attr_put_strz(w->nlh, NFTA_SET_ELEM_LIST_TABLE, w->si->table);
		mnl_attr_put_strz(w->nlh, NFTA_SET_ELEM_LIST_SET, w->si->name);
		w->nest = mnl_attr_nest_start(w->nlh,
					      NFTA_SET_ELEM_LIST_ELEMENTS);
	}
	elem_enc(w->nlh, a);
	return w->nlh->nlmsg_len >= TXN_ELEM_MSG_LIMIT ? sw_close(w) : 0;
}

/*
 * One element as the set's kind needs it (elem_write.h): a single-field
 * interval is its start element (with data and timeouts) and an end
 * element at end + 1, none when end is the top of the type.
 */
static int write_elem(const struct sync_job *j, struct sync_writer *w,
		      uint16_t type, const uint8_t *key, const uint8_t *key_end,
		      const struct elem_data *d, uint64_t tmo, uint64_t exp)
{
	const struct keytype *kt = &j->si->kt;
	struct elem_attrs a = {
		.key = key, .key_len = kt->key_len, .data = d,
		.verdict = kt->dtype == KT_DATA_VERDICT, .dlen = kt->dlen,
		.timeout_ms = tmo, .expiration_ms = exp,
	};
	uint8_t next[KT_MAX_KEY];
	int err;

	if (j->kind == SYNC_CONCAT)
		a.key_end = key_end;
	err = sw_put(w, type, &a);
	if (err || j->kind != SYNC_SINGLE || elem_key_inc(kt, key_end, next))
		return err;
	memset(&a, 0, sizeof(a));
	a.key = next;
	a.key_len = kt->key_len;
	a.flags = NFT_SET_ELEM_INTERVAL_END;
	return sw_put(w, type, &a);
}

/* The dump's side of an attempt. */
struct differ {
	struct sync_job *j;
	struct sync_writer w;
	FILE *minus;		/* dry run: the '-' lines, printed at the end */
	uint8_t key[2 * KT_MAX_KEY];
	struct elem_pairer pr;
};

/* the element's timeout, its own or the set's (0: none) */
static uint64_t tmo_eff(const struct setinfo *si, uint64_t own)
{
	return own ? own : si->timeout_ms;
}

static int data_same(const struct sync_job *j, const uint8_t *rd,
		     const struct elem_raw *e)
{
	int32_t verdict;
	uint32_t num;

	if (!e->has_data)
		return 0;
	if (j->si->kt.dtype != KT_DATA_VERDICT)
		return !memcmp(rd, e->data.value, j->tab.dlen);
	memcpy(&verdict, rd, 4);
	memcpy(&num, rd + 4, 4);
	if (verdict != e->data.verdict)
		return 0;
	return (verdict != NFT_JUMP && verdict != NFT_GOTO) ||
	       !strcmp(sync_tab_chain_name(&j->tab, num), e->data.chain);
}

/* An element of the set goes: deleted, or a '-' line. */
static int drop(struct differ *df, const struct elem_raw *e)
{
	struct sync_job *j = df->j;
	char text[1000];

	j->n.del++;
	if (j->dry) {
		sync_format(j, e->key, e->key_end, e->timeout_ms,
			    e->has_data ? &e->data : NULL, text, sizeof(text));
		fprintf(df->minus, "- %s\n", text);
		return 0;
	}
	return write_elem(j, &df->w, NFT_MSG_DELSETELEM, e->key, e->key_end,
			  NULL, 0, 0);
}

static int diff_item(void *arg, const struct elem_raw *e)
{
	struct differ *df = arg;
	struct sync_job *j = df->j;
	uint8_t *rec, *state;
	uint64_t want;
	char text[1000];

	if (e->keyless) {
		j->n.keyless++;
		return 0;
	}
	j->n.set++;
	sync_key(j, e->key, e->key_end, df->key);
	rec = sync_tab_find(&j->tab, df->key);
	if (!rec)
		return drop(df, e);
	state = sync_rec_state(&j->tab, rec);
	if (j->tab.dlen && !data_same(j, sync_rec_data(&j->tab, rec), e)) {
		*state = SYNC_REPLACE;
		return drop(df, e);
	}
	want = tmo_eff(j->si, sync_rec_tmo(&j->tab, rec));
	if (j->tab.tmo_off && want != tmo_eff(j->si, e->timeout_ms)) {
		if (!want) {	/* no timeout to update to: replaced */
			*state = SYNC_REPLACE;
			return drop(df, e);
		}
		*state = SYNC_RETIME;
		if (j->dry) {
			sync_format(j, e->key, e->key_end, e->timeout_ms,
				    e->has_data ? &e->data : NULL, text,
				    sizeof(text));
			fprintf(df->minus, "- %s\n", text);
		}
		return 0;
	}
	*state = SYNC_STAY;
	return 0;
}

static int pair_raw(void *arg, const struct elem_raw *e)
{
	return elem_pair_push(arg, e);
}

/* The table's side: additions, timeout changes and renewals. */
static int write_table(struct sync_job *j, struct sync_writer *w)
{
	const struct sync_tab *tab = &j->tab;
	uint32_t len = j->si->kt.key_len;
	struct elem_data d;
	char text[1000];
	int err = 0;

	memset(&d, 0, sizeof(d));
	for (size_t i = 0; !err && i < tab->n; i++) {
		uint8_t *rec = sync_rec(tab, i);
		const uint8_t *end = j->kind == SYNC_PLAIN ? rec : rec + len;
		uint8_t state = *sync_rec_state(tab, rec);
		uint64_t tmo = sync_rec_tmo(tab, rec);
		uint64_t exp = 0;

		if (state == SYNC_STAY && !(tab->tmo_off &&
					    tmo_eff(j->si, tmo)))
			continue;
		if (state != SYNC_NEW && state != SYNC_REPLACE)
			exp = tmo_eff(j->si, tmo);
		if (state == SYNC_STAY)
			j->n.renew++;
		else if (state == SYNC_RETIME)
			j->n.retime++;
		else
			j->n.add++;
		if (tab->dlen)
			sync_data_unpack(j, sync_rec_data(tab, rec), &d);
		if (j->dry && state != SYNC_STAY) {
			sync_format(j, rec, end, tmo, tab->dlen ? &d : NULL,
				    text, sizeof(text));
			printf("+ %s\n", text);
		}
		err = write_elem(j, w, NFT_MSG_NEWSETELEM, rec, end,
				 tab->dlen ? &d : NULL, tmo, exp);
	}
	return err;
}

/* NFTA_GEN_ID of a NEWGEN message */
static int gen_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct nfgenmsg)) {
		if (mnl_attr_get_type(a) == NFTA_GEN_ID &&
		    mnl_attr_validate(a, MNL_TYPE_U32) == 0) {
			*(uint32_t *)data = ntohl(mnl_attr_get_u32(a));
			return MNL_CB_OK;
		}
	}
	return MNL_CB_OK;
}

int sync_genid(struct nl *nl, uint32_t *genid)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nl_err e;
	int err;

	*genid = 0;
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETGEN, AF_UNSPEC, NLM_F_ACK,
				    nl->seq++);
	err = nl_talk(nl, nlh, gen_cb, genid, buf, sizeof(buf), &e);
	if (!err && !*genid)
		err = -EPROTO;	/* the kernel never uses 0 (no check) */
	return err;
}

/* Kernel errors as element add reports them; a moved generation apart. */
struct sync_rep {
	struct txn_reporter base;	/* cmd_reporter()'s */
	struct ctx *c;
	uint32_t genid;
	int retrying;
};

static const char *rep_explain(const struct txn_what *w, int err, char *buf,
			       size_t len, void *data)
{
	struct sync_rep *r = data;

	if (err == -ERESTART && w->type == -1) {
		snprintf(buf, len, "the ruleset changed after generation %u "
			 "was read (another process committed): nothing "
			 "applied, %s", r->genid, r->retrying ?
			 "trying again" : "no retries left (--retries)");
		return buf;
	}
	return r->base.explain(w, err, buf, len, r->c);
}

static int rep_elem_fmt(const struct txn_what *w, char *buf, size_t len,
			void *data)
{
	struct sync_rep *r = data;

	return r->base.elem_fmt(w, buf, len, r->c);
}

static int commit(struct sync_job *j, struct txn *t, uint32_t genid,
		  int retrying)
{
	struct sync_rep r = { .c = j->c, .genid = genid, .retrying = retrying };
	struct txn_reporter rep;
	int err;

	cmd_reporter(j->c, &r.base, j->c->op);
	rep = r.base;
	rep.explain = rep_explain;
	rep.elem_fmt = rep_elem_fmt;
	rep.data = &r;
	j->batch_bytes = t->bytes;
	err = txn_commit(t, &j->c->nl, &rep);
	j->t_kernel = t->t_done_ns - t->t_send_ns;
	j->t_replies = t->t_collect_ns - t->t_done_ns;
	return err;
}

static int dump_and_diff(struct sync_job *j, struct differ *df)
{
	const struct setinfo *si = j->si;
	uint64_t t0 = sync_now_ns();
	int err;

	elem_pair_init(&df->pr, si, diff_item, df);
	err = elem_dump(&j->c->nl, si, pair_raw, &df->pr);
	if (!err)
		err = elem_pair_flush(&df->pr);
	j->t_dump = sync_now_ns() - t0;
	if (err == -ENOMEM)
		return err;
	if (err && err != -EMSGSIZE)
		fprintf(stderr, "nftlab: %s: %s/%s/%s: reading the set's "
			"elements: %s\n", j->c->op, nl_family_name(si->family),
			si->table, si->name, strerror(-err));
	if (!err && j->n.keyless) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: the set holds %llu "
			"catch-all element(s), which a file cannot hold: "
			"nothing sent\n", j->c->op, nl_family_name(si->family),
			si->table, si->name, (unsigned long long)j->n.keyless);
		j->c->refused = 1;
		err = -EINVAL;
	}
	return err;
}

/*
 * Nothing to commit (a dry run, or no difference): the answer holds only
 * if no commit came between the generation read and the end of the dump.
 */
static int gen_still(struct sync_job *j, uint32_t genid, int retrying)
{
	uint32_t now;
	int err = sync_genid(&j->c->nl, &now);

	if (err)
		return err;
	if (now == genid)
		return 0;
	fprintf(stderr, "nftlab: %s: %s/%s/%s: the ruleset changed while the "
		"set was read (generation %u, now %u): nothing applied, %s\n",
		j->c->op, nl_family_name(j->si->family), j->si->table,
		j->si->name, genid, now, retrying ? "reading it again" :
		"no retries left (--retries)");
	return -ERESTART;
}

static int batch_fail(struct sync_job *j, int err)
{
	if (err == -EMSGSIZE) {
		fprintf(stderr, "nftlab: %s: %s/%s/%s: transaction exceeds "
			"--max-batch %zu bytes, nothing sent: %s\n", j->c->op,
			nl_family_name(j->si->family), j->si->table,
			j->si->name, j->c->max_batch, strerror(EMSGSIZE));
		j->c->refused = 1;
	}
	return err;
}

int sync_diff(struct sync_job *j, uint32_t genid, int retrying)
{
	struct differ *df = calloc(1, sizeof(*df));
	char *minus = NULL;
	size_t minus_len = 0;
	struct txn t = { 0 };
	uint64_t t0;
	int err;

	if (!df)
		return -ENOMEM;
	memset(&j->n, 0, sizeof(j->n));
	sync_tab_reset(&j->tab);
	df->j = j;
	df->w.si = j->si;
	if (j->dry) {
		df->minus = open_memstream(&minus, &minus_len);
		err = df->minus ? 0 : -ENOMEM;
	} else {
		err = txn_init(&t, &j->c->nl, j->c->max_batch);
		if (!err) {
			t.check = j->c->check;
			err = txn_genid(&t, genid);
			df->w.t = &t;
		}
	}
	if (!err)
		err = dump_and_diff(j, df);
	if (!err && j->dry) {
		/* '-' lines first, then '+' lines from the table */
		fclose(df->minus);
		df->minus = NULL;
		err = gen_still(j, genid, retrying);
		if (!err)
			fwrite(minus, 1, minus_len, stdout);
	}
	t0 = sync_now_ns();
	if (!err)
		err = write_table(j, &df->w);
	if (!err && !j->dry)
		err = sw_close(&df->w);
	j->t_write = sync_now_ns() - t0;
	err = batch_fail(j, err);
	if (!err && !j->dry && !t.nmsgs)
		err = gen_still(j, genid, retrying);	/* no write at all */
	else if (!err && !j->dry)
		err = commit(j, &t, genid, retrying);
	if (df->minus)
		fclose(df->minus);
	free(minus);
	if (df->w.t)
		txn_fini(&t);
	free(df);
	return err;
}

/* elem_dump() stops at the first element: the set is not empty */
static int first_elem(void *arg, const struct elem_raw *e)
{
	(void)e;
	*(int *)arg = 1;
	return -ECANCELED;
}

/*
 * On a socket of its own, closed after the first answer: a dump left
 * unread there costs the kernel one message of elements, not the walk of
 * the whole set.
 */
int sync_set_empty(const struct setinfo *si)
{
	struct nl nl = { 0 };
	int found = 0, err;

	err = nl_open(&nl);
	if (err)
		return err;
	err = elem_dump(&nl, si, first_elem, &found);
	nl_close(&nl);
	if (found)
		return 0;
	return err ? err : 1;
}

int sync_put_direct(struct sync_job *j, const uint8_t *key,
		    const uint8_t *key_end, const struct elem_data *d,
		    uint64_t tmo)
{
	j->n.add++;
	return write_elem(j, j->direct, NFT_MSG_NEWSETELEM, key, key_end, d,
			  tmo, 0);
}

int sync_cold(struct sync_job *j, const char *path, uint32_t genid)
{
	struct sync_writer w = { .si = j->si };
	struct txn t;
	uint64_t t0 = sync_now_ns();
	int err;

	memset(&j->n, 0, sizeof(j->n));
	err = txn_init(&t, &j->c->nl, j->c->max_batch);
	if (err)
		return err;
	t.check = j->c->check;
	err = txn_genid(&t, genid);
	w.t = &t;
	j->direct = &w;
	if (!err)
		err = sync_file_read(j, path);
	if (!err)
		err = sw_close(&w);
	j->direct = NULL;
	j->t_read = sync_now_ns() - t0;
	err = batch_fail(j, err);
	if (!err && t.nmsgs)
		err = commit(j, &t, genid, 1);
	txn_fini(&t);
	return err;
}
