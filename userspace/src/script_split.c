// SPDX-License-Identifier: GPL-2.0
/* Split a script line into words (see script.h); no netlink. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "script.h"

static int words_push(struct words *w, char *word)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		void *p = realloc(w->v, cap * sizeof(*w->v));

		if (!p)
			return -ENOMEM;
		w->v = p;
		w->cap = cap;
	}
	w->v[w->n++] = word;
	return 0;
}

void words_free(struct words *w)
{
	free(w->v);
	w->v = NULL;
	w->n = w->cap = 0;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Words are unquoted in place; w->v points into line. */
int script_split(char *line, struct words *w, char *why, size_t whylen)
{
	char *in = line;

	w->n = 0;
	for (;;) {
		char *out, *word;
		int err;

		while (is_blank(*in))
			in++;
		if (!*in || *in == '#')
			return 0;
		word = out = in;
		while (*in && !is_blank(*in)) {
			char q = *in;

			if (q == '\\') {
				if (!in[1]) {
					snprintf(why, whylen, "line ends in '\\'");
					return -EINVAL;
				}
				*out++ = in[1];
				in += 2;
			} else if (q == '\'' || q == '"') {
				in++;
				while (*in && *in != q) {
					if (q == '"' && *in == '\\' &&
					    (in[1] == '"' || in[1] == '\\'))
						in++;
					*out++ = *in++;
				}
				if (!*in) {
					snprintf(why, whylen, "unterminated %c quote", q);
					return -EINVAL;
				}
				in++;
			} else {
				*out++ = *in++;
			}
		}
		/* the blank after the word may be overwritten by its NUL */
		if (*in)
			in++;
		*out = '\0';
		err = words_push(w, word);
		if (err)
			return err;
	}
}
