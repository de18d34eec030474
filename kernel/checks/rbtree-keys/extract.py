#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: extract.py NFT_SET_RBTREE_C OUT_H

Copies, from a 7.3 tree's net/netfilter/nft_set_rbtree.c with series
patch 7, the array structs and the functions that allocate the array,
store and check its lookup keys and search it, for check.c to compile in
userspace against shim.h.  Exits 4
(skip) when the file has no lookup keys (a tree without patch 7)."""
import sys

STRUCTS = ("struct nft_array_interval {", "#define NFT_ARRAY_KEY_WORDS_MAX",
           "struct nft_array_lookup_ctx {")
FUNCS = ("static int nft_array_lookup_cmp(", "static u32 nft_array_key_words(",
         "static __always_inline u64 nft_array_key_word(",
         "static __always_inline void nft_array_key(",
         "static __always_inline bool nft_array_word_le(",
         "nft_array_search_word(const struct nft_array *array, u64 key, u32 size)",
         "static bool nft_array_words_le(",
         "nft_array_search_words(const struct nft_array *array, const u64 *key)",
         "nft_array_search_elems(const struct nft_array *array,",
         "nft_array_search(const struct nft_array *array, const u32 *key, u32 klen)",
         "static int nft_array_intervals_alloc(", "static void nft_array_keys_alloc(",
         "static struct nft_array *nft_array_alloc(",
         "static void __nft_array_free(",
         "nft_array_words_store(const struct nft_array *array, void *keys, u32 i,",
         "static noinline void nft_array_key_store_copy(",
         "static __always_inline void nft_array_key_store(", "static __always_inline bool nft_array_keys_fill(",
         "static void nft_array_keys_build(")


def block(src, start, end):
    i = src.index(start)
    # a function's head may start on the line before its name
    line = src.rfind("\n", 0, i) + 1
    if not src.startswith(("static", "struct", "#define"), line):
        line = src.rfind("\n", 0, line - 1) + 1
    return src[line:src.index(end, i) + len(end)]


def main():
    src = open(sys.argv[1]).read()
    if "NFT_ARRAY_KEY_WORDS_MAX" not in src:
        print("1..0 # SKIP %s has no lookup keys (series patch 7)" % sys.argv[1])
        return 4
    out = [block(src, s, "};\n") for s in STRUCTS]
    out += [block(src, f, "\n}\n") for f in FUNCS]
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
