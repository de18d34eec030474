/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_QUOTE_H
#define NFTLAB_QUOTE_H

#include <stddef.h>

/*
 * Untrusted text (command line words, file contents) shown in a message:
 * control bytes, DEL, bytes >= 0x80 and backslashes escaped (\n, \t, \xNN),
 * cut with "..." to fit QUOTE_MAX bytes.
 */
enum { QUOTE_MAX = 96 };

struct qbuf {
	char s[QUOTE_MAX];
};

const char *quote(struct qbuf *q, const char *s);
const char *quote_buf(char *buf, size_t len, const char *s);

#endif
