/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP producer for the C unit tests of userspace/: ok N - name at
 * column 0.  The C third of the project's TAP producers, beside lib/tap.sh
 * (shell) and lib/tap.py (Python): the same ok/not ok lines, no nesting.
 */
#ifndef NFTLAB_TAP_H
#define NFTLAB_TAP_H

#include <stdio.h>

struct tap {
	int n;
	int failed;
};

#define TAP_OK(t, cond, ...) do {					\
	int tap_c_ = !!(cond);						\
	(t)->n++;							\
	if (!tap_c_)							\
		(t)->failed++;						\
	printf("%sok %d - ", tap_c_ ? "" : "not ", (t)->n);		\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	if (!tap_c_)							\
		printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
} while (0)

void test_keytype(struct tap *t);
void test_elem(struct tap *t);
void test_gen(struct tap *t);
void test_input(struct tap *t);
void test_enc(struct tap *t);
void test_src(struct tap *t);
void test_list(struct tap *t);
void test_ivl(struct tap *t);
void test_write(struct tap *t);

#endif
