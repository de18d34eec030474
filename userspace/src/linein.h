/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_LINEIN_H
#define NFTLAB_LINEIN_H

#include <stddef.h>

/*
 * Lines of an input file ("-": standard input) for --file and -f.  Open
 * and read errors, NUL bytes, control bytes other than tab (and CR before
 * the newline) and lines over LINEIN_MAX bytes are errors that name the
 * file and line; they are printed here, prefixed with op.
 */
enum { LINEIN_MAX = 1 << 20, LINEIN_CHUNK = 256 * 1024 };

/*
 * Input is read with read(2) in LINEIN_CHUNK pieces into buf; lines are
 * found with memchr() and handed out in place (no copy per line).
 */
struct linein {
	int fd;			/* -1: closed */
	const char *path;
	const char *op;		/* "element add", "" for -f */
	int is_stdin;
	unsigned long lineno;
	char *buf;
	size_t cap;
	size_t start, end;	/* unread bytes: buf[start, end) */
	int eof;
	int err;		/* an input error was reported */
};

int linein_open(struct linein *in, const char *op, const char *path,
		int stdin_used);
int linein_next(struct linein *in, char **line);
void linein_close(struct linein *in);
int linein_check(const char *line, size_t len, char *why, size_t whylen);

#endif
