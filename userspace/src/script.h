/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_SCRIPT_H
#define NFTLAB_SCRIPT_H

#include <stddef.h>

struct ctx;

/*
 * -f FILE: nftlab commands, one per line, as ONE transaction.
 * A line is split into words as a POSIX shell would split a command line
 * without expansions: blanks separate words, '...' quotes literally,
 * "..." quotes with \" and \\ escapes, a backslash outside quotes escapes
 * the next byte, '#' at the start of a word comments out the rest of the
 * line.  NUL and control bytes other than tab are errors.
 */
struct words {
	char **v;
	size_t n, cap;
};

int script_split(char *line, struct words *w, char *why, size_t whylen);
void words_free(struct words *w);
int script_run(struct ctx *c, const char *path);

#endif
