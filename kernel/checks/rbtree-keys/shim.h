/* SPDX-License-Identifier: GPL-2.0 */
/* Just enough of the kernel's types and helpers for the functions that
 * extract.py copies from nft_set_rbtree.c to build in userspace.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint8_t u8;
typedef uint32_t __be32;

#define __force
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define noinline __attribute__((noinline))
#define likely(x) (x)
#define unlikely(x) (x)
#define ENOMEM 12
#define GFP_KERNEL_ACCOUNT 0
/* userspace allocations, so that ASan sees the array and its keys */
#define kzalloc_obj(obj, gfp) calloc(1, sizeof(obj))
#define kvmalloc_array(n, size, gfp) malloc((size_t)(n) * (size))
#define kvzalloc_objs(type, n, gfp) calloc((n), sizeof(type))
#define array_size(a, b) ((size_t)(a) * (b))
#define kvfree(p) free(p)
#define kfree(p) free(p)
#define U64_MAX UINT64_MAX
#define BITS_PER_BYTE 8
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define be32_to_cpu(x) __builtin_bswap32(x)

struct rcu_head { void *next; };
/* As in the kernel: an element's key is an nft_data, 8-byte aligned. */
struct nft_data { u32 data[4]; };
struct nft_set_ext { u8 key[64] __attribute__((aligned(8))); };
struct nft_set { u32 klen; };

static inline struct nft_data *nft_set_ext_key(const struct nft_set_ext *ext)
{
	return (struct nft_data *)ext->key;
}

/* A binary search with the kernel's calling convention: CMP(key, elt) < 0
 * means the key is below ELT.
 */
static inline void *__inline_bsearch(const void *key, const void *base,
				     size_t num, size_t size,
				     int (*cmp)(const void *key, const void *elt))
{
	size_t lo = 0, hi = num;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *elt = (const char *)base + mid * size;
		int r = cmp(key, elt);

		if (!r)
			return (void *)elt;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
