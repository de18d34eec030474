/* SPDX-License-Identifier: GPL-2.0 */
/* Growable arrays: one doubling policy for every list the tool builds. */
#ifndef NFTLAB_VEC_H
#define NFTLAB_VEC_H

#include <stddef.h>

/* Room for one more of n items of size sz in *v (capacity *cap):
 * doubles the capacity (16 at first) when full; -ENOMEM, *v untouched,
 * when that fails. */
int vec_grow(void **v, size_t *cap, size_t n, size_t sz);

#endif
