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
/*
 * LINEIN_CHUNK: small enough for the buffer to stay in the CPU cache while
 * a bulk load streams 16 MB of batch through it: with 256 KiB reads the
 * kernel's copy into a cache-cold buffer took about a quarter of the
 * --file build time of a 1M-element load (perf, cpu-clock samples).
 */
enum { LINEIN_MAX = 1 << 20, LINEIN_CHUNK = 64 * 1024 };

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

/*
 * stdin_used: 0, 1 (read already: "-" refused) or LINEIN_STDIN_CLOSED (the
 * process started with fd 0 closed; main() put /dev/null there so that no
 * socket lands on it, and "-" is refused).
 */
enum { LINEIN_STDIN_CLOSED = 2 };
int linein_open(struct linein *in, const char *op, const char *path,
		int stdin_used);
int linein_next(struct linein *in, char **line);

/*
 * For a caller that recognises its common lines in place (--file's bulk
 * loop): the unread bytes at *p, followed by a NUL; linein_take() consumes
 * a line of len bytes ending in '\n' that the caller has found there and
 * returns it NUL-terminated, as linein_next() would have.  The caller must
 * only take lines that linein_next() would hand out unchanged (printable
 * text and tabs, at most LINEIN_MAX bytes, a '\n' and no '\r' before it);
 * all other lines are left to linein_next().
 */
static inline size_t linein_avail(const struct linein *in, char **p)
{
	if (in->end == in->start)
		return 0;
	*p = in->buf + in->start;
	return in->end - in->start;
}

static inline char *linein_take(struct linein *in, size_t len)
{
	char *line = in->buf + in->start;

	line[len - 1] = '\0';
	in->start += len;
	in->lineno++;
	return line;
}
void linein_close(struct linein *in);
int linein_check(const char *line, size_t len, char *why, size_t whylen);

#endif
