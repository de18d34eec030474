// SPDX-License-Identifier: GPL-2.0
/* Growable arrays (vec.h). */
#include <errno.h>
#include <stdlib.h>

#include "vec.h"

int vec_grow(void **v, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	p = realloc(*v, ncap * sz);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}
