// SPDX-License-Identifier: GPL-2.0
/* Checks nft_set_rbtree's lookup keys (series patch 7) in userspace, on
 * arrays built as nft_rbtree_commit() builds them from random runs of
 * start and end elements in key order, keys of 1 to 16 bytes:
 * - where ->commit finds the keys sorted, the search of the keys returns
 *   the interval that a linear scan with memcmp() finds: the one whose
 *   start is at or below the key and whose end (if any) is above it;
 * - arrays of well-formed intervals (start below end, in key order, with
 *   or without the all-zero end element first and an open interval last)
 *   are always found sorted, so that they take the fast path.
 * Keys past the key length in the registers hold garbage, as they may in
 * the kernel.  Prints TAP; exits 0 or 1.
 */
#include "shim.h"
#include "extracted.h"

#define MAX_ELEMS 64

struct elem {
	u8 key[16];
	bool end;
};

static u32 klen;

static u32 rnd(void)
{
	return (u32)random();
}

/* key order, end elements before start elements of the same key, as the
 * tree's ascending walk gives them
 */
static int elem_cmp(const void *a, const void *b)
{
	const struct elem *x = a, *y = b;
	int d = memcmp(x->key, y->key, klen);

	return d ? d : (int)y->end - (int)x->end;
}

static void random_key(u8 *key, u32 len, u32 alphabet)
{
	u32 b, r;

	for (b = 0; b < len; b++) {
		r = rnd() % 8;
		key[b] = r == 0 ? 0 : r == 1 ? 0xff : rnd() % (alphabet + 1);
	}
}

/* nft_rbtree_commit()'s loop over the elements in ascending order */
static u32 build(struct nft_array *a,
		 const struct elem *e, struct nft_set_ext *ext, u32 n)
{
	struct nft_array_interval *iv = a->intervals;
	u32 num = 0, i, max = a->max_intervals;

	for (i = 0; i < n; i++) {
		if (!e[i].end)
			iv[num].from = &ext[i];
		else
			iv[num++].to = &ext[i];
		if (num >= max)
			return num;
		if (i + 1 < n && !e[i].end && !e[i + 1].end && iv[num].from)
			iv[num++].to = &ext[i + 1];
		if (num >= max)
			return num;
	}
	if (iv[num].from)
		num++;
	return num;
}

static const struct nft_array_interval *
linear(const struct nft_array_interval *iv, u32 num, const void *key)
{
	u32 i;

	for (i = 0; i < num; i++) {
		if (!iv[i].from || memcmp(key, iv[i].from->key, klen) < 0)
			continue;
		if (!iv[i].to || memcmp(key, iv[i].to->key, klen) < 0)
			return &iv[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 100000, it;
	long fast = 0, hits = 0, wrong = 0, slow_wellformed = 0;
	long sizes[3] = {};

	srandom(argc > 2 ? atoi(argv[2]) : 1);
	for (it = 0; it < iters; it++) {
		struct nft_set_ext ext[MAX_ELEMS];
		struct elem e[MAX_ELEMS];
		u32 alphabet = rnd() % 2 ? 3 : 255;
		bool wellformed = rnd() % 2;
		u32 n, m, i, q, room, max = MAX_ELEMS + 1;
		bool short_keys;
		struct nft_array_interval *iv;
		struct nft_set set;
		struct nft_array *a;

		klen = 1 + rnd() % 16;
		set.klen = klen;
		n = rnd() % 24;
		for (i = 0; i < n; i++) {
			random_key(e[i].key, klen, alphabet);
			if (rnd() % 16 == 0)
				memset(e[i].key, 0xff, klen);
			if (rnd() % 16 == 0)
				memset(e[i].key, 0, klen);
			e[i].end = rnd() % 2;
		}
		/* Two elements of one key and kind are kept: the tree holds
		 * them only within a transaction, not at ->commit, but the
		 * keys' order must not depend on that.
		 */
		qsort(e, n, sizeof(e[0]), elem_cmp);
		if (wellformed) {
			/* distinct keys, start/end pairs, maybe a zero end first
			 * and an open interval last
			 */
			for (i = 0, m = 0; i < n; i++)
				if (!m || memcmp(e[m - 1].key, e[i].key, klen))
					e[m++] = e[i];
			n = m;
			for (i = 0; i < n; i++)
				e[i].end = i % 2;
			if (n && rnd() % 2) {
				memset(e[0].key, 0, klen);
				e[0].end = true;
				for (i = 1; i < n; i++)
					e[i].end = !(i % 2);
			}
		}
		for (i = 0; i < n; i++)
			memcpy(ext[i].key, e[i].key, sizeof(e[i].key));

		a = nft_array_alloc(&set, max);
		if (!a) {
			printf("Bail out! out of memory\n");
			return 1;
		}
		/* keys for every interval the array can hold, as ->commit
		 * allocates them for a set's elements; now and then room for
		 * fewer, which must leave the keys unsearched
		 */
		short_keys = rnd() % 8 == 0;
		room = short_keys ? rnd() % (max + 1) : max;
		nft_array_keys_alloc(a, room);
		iv = a->intervals;
		a->num_intervals = build(a, e, ext, n);
		nft_array_keys_build(&set, a);
		if (a->keys_sorted && a->num_intervals > room && wrong++ < 5)
			printf("# iteration %ld: %u intervals, keys for %u, searched\n",
			       it, a->num_intervals, room);
		if (!a->keys_sorted) {
			if (wellformed && !(short_keys && (!room || a->num_intervals > room)))
				slow_wellformed++;
			__nft_array_free(a);
			continue;
		}
		fast++;
		sizes[a->key_size == 4 ? 0 : a->key_size == 8 ? 1 : 2]++;

		for (q = 0; q < 64; q++) {
			const struct nft_array_interval *want, *got;
			u32 regs[16];
			u8 *kb = (u8 *)regs;

			for (i = 0; i < sizeof(regs); i++)
				kb[i] = rnd();
			if (q == 0)
				memset(kb, 0xff, klen);
			else if (q == 1)
				memset(kb, 0, klen);
			else if (n && q % 2) {
				memcpy(kb, e[rnd() % n].key, klen);
				kb[klen - 1] += rnd() % 3 - 1;
			} else {
				random_key(kb, klen, alphabet);
			}

			want = linear(iv, a->num_intervals, kb);
			got = nft_array_search(a, regs, klen);
			if (want)
				hits++;
			if (want != got && wrong++ < 5)
				printf("# iteration %ld: key length %u, %u intervals: want %ld, got %ld\n",
				       it, klen, a->num_intervals,
				       want ? want - iv : -1L, got ? got - iv : -1L);
		}
		__nft_array_free(a);
	}
	printf("1..3\n");
	printf("# %ld arrays, %ld with sorted keys (of 4, 8, 16 bytes: %ld, %ld, %ld), %ld lookups that match\n",
	       iters, fast, sizes[0], sizes[1], sizes[2], hits);
	printf("%s 1 - the keys' search finds the interval a linear scan with memcmp() finds (%ld differ)\n",
	       wrong ? "not ok" : "ok", wrong);
	printf("%s 2 - arrays of well-formed intervals take the keys' search (%ld do not)\n",
	       slow_wellformed ? "not ok" : "ok", slow_wellformed);
	/* each size of kept key was searched */
	printf("%s 3 - keys kept as 4, 8 and 16 bytes were all searched\n",
	       sizes[0] && sizes[1] && sizes[2] ? "ok" : "not ok");
	return wrong || slow_wellformed || !(sizes[0] && sizes[1] && sizes[2]);
}
