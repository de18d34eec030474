// SPDX-License-Identifier: GPL-2.0
/* Escape and truncate untrusted text for messages. */
#include <stdio.h>
#include <string.h>

#include "quote.h"

/* The escaped form of byte c in out (at most 5 bytes with NUL). */
static size_t quote_byte(unsigned char c, char *out)
{
	switch (c) {
	case '\n': return (size_t)snprintf(out, 5, "\\n");
	case '\t': return (size_t)snprintf(out, 5, "\\t");
	case '\r': return (size_t)snprintf(out, 5, "\\r");
	case '\\': return (size_t)snprintf(out, 5, "\\\\");
	}
	if (c < 0x20 || c >= 0x7f)
		return (size_t)snprintf(out, 5, "\\x%02x", c);
	out[0] = (char)c;
	out[1] = '\0';
	return 1;
}

const char *quote_buf(char *buf, size_t len, const char *s)
{
	size_t off = 0;

	if (!len)
		return "";
	buf[0] = '\0';
	if (len < 8)
		return buf;
	for (; *s; s++) {
		char esc[5];
		size_t n = quote_byte((unsigned char)*s, esc);

		/* keep room for "..." and the NUL */
		if (off + n + 4 > len) {
			memcpy(buf + off, "...", 4);
			return buf;
		}
		memcpy(buf + off, esc, n + 1);
		off += n;
	}
	return buf;
}

const char *quote(struct qbuf *q, const char *s)
{
	return quote_buf(q->s, sizeof(q->s), s);
}
