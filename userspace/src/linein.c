// SPDX-License-Identifier: GPL-2.0
/* Checked line input for --file and -f (see linein.h). */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linein.h"
#include "quote.h"

static int linein_err(struct linein *in, int err, const char *msg)
{
	struct qbuf q;

	/* an empty name would vanish in the message */
	fprintf(stderr, "nftlab: %s%s%s", in->op, *in->op ? ": " : "",
		*in->path ? quote(&q, in->path) : "''");
	if (in->lineno)
		fprintf(stderr, ":%lu", in->lineno);
	fprintf(stderr, ": %s\n", msg);
	in->err = 1;
	return err;
}

int linein_open(struct linein *in, const char *op, const char *path,
		int stdin_used)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->path = path;
	in->op = op;
	if (!strcmp(path, "-")) {
		if (stdin_used == LINEIN_STDIN_CLOSED)
			return linein_err(in, -EBADF, "standard input is closed");
		if (stdin_used)
			return linein_err(in, -EINVAL, "standard input is "
					  "already read by this run");
		in->fd = STDIN_FILENO;
		in->is_stdin = 1;
		in->path = "<stdin>";
		return 0;
	}
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0)
		return linein_err(in, -errno, strerror(errno));
	return 0;
}

/* NUL, control bytes (tab and a final CR allowed), length. */
int linein_check(const char *line, size_t len, char *why, size_t whylen)
{
	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	if (len > LINEIN_MAX) {
		snprintf(why, whylen, "line longer than %d bytes", LINEIN_MAX);
		return -EINVAL;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char ch;

		/*
		 * 8 bytes at a time while none is below 0x20 or 0x7f: the
		 * lowest such byte always sets its high bit here (exact
		 * "has less than" / "has zero" tests), other blocks go on.
		 */
		while (i + 8 <= len) {
			uint64_t x, y;

			memcpy(&x, line + i, 8);
			y = x ^ 0x7f7f7f7f7f7f7f7fULL;
			if (((x - 0x2020202020202020ULL) |
			     (y - 0x0101010101010101ULL)) & ~x & ~y &
			    0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i == len)
			break;
		ch = (unsigned char)line[i];
		if (ch == '\t' || (ch >= 0x20 && ch != 0x7f))
			continue;
		snprintf(why, whylen, "%s at byte %zu",
			 ch ? "control byte" : "NUL byte", i + 1);
		if (ch)
			snprintf(why + strlen(why), whylen - strlen(why),
				 " (0x%02x)", ch);
		return -EINVAL;
	}
	return 0;
}

/* Read more input after buf[end]; 0: some or EOF, <0: -errno. */
static int linein_fill(struct linein *in)
{
	ssize_t n;

	if (in->start && in->start == in->end) {
		in->start = in->end = 0;
	} else if (in->start && in->cap - in->end < LINEIN_CHUNK + 1) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	if (in->cap - in->end < LINEIN_CHUNK + 1) {
		size_t cap = in->cap ? in->cap * 2 : 2 * LINEIN_CHUNK;
		char *p = realloc(in->buf, cap);

		if (!p)
			return -ENOMEM;
		in->buf = p;
		in->cap = cap;
	}
	in->buf[in->end] = '\0';	/* for linein_avail(), even on errors */
	do
		n = read(in->fd, in->buf + in->end, LINEIN_CHUNK);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		in->eof = 1;
	in->end += (size_t)n;
	in->buf[in->end] = '\0';
	return 0;
}

/*
 * Fast path: the next line is complete in the buffer, ends in a plain
 * '\n' and holds no byte below 0x20 but tab, and no 0x7f: one pass finds
 * its end and checks it, 8 bytes at a time.  NULL: linein_next() reads on,
 * checks with linein_check() and says what is wrong.
 */
static char *linein_fast(struct linein *in)
{
	char *p = in->buf + in->start, *q = p, *end = in->buf + in->end;

	for (;;) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		while (end - q >= 8) {
			uint64_t x, y, m;

			memcpy(&x, q, 8);
			y = x ^ 0x7f7f7f7f7f7f7f7fULL;
			m = ((x - 0x2020202020202020ULL) |
			     (y - 0x0101010101010101ULL)) & ~x & ~y &
			    0x8080808080808080ULL;
			if (m) {
				/* the lowest flagged byte is a real one */
				q += __builtin_ctzll(m) / 8;
				break;
			}
			q += 8;
		}
#endif
		while (q < end && (unsigned char)*q >= 0x20 &&
		       (unsigned char)*q != 0x7f)
			q++;
		if (q == end)
			return NULL;
		if (*q != '\t')
			break;
		q++;
	}
	if (*q != '\n' || q - p > LINEIN_MAX)
		return NULL;
	*q = '\0';
	in->start += (size_t)(q - p) + 1;
	in->lineno++;
	return p;
}

/* linein_next() for all but the fast path's lines */
static int linein_slow(struct linein *in, char **line)
{
	char why[96], *p, *nl;
	size_t len;

	for (;;) {
		int err;

		p = NULL;
		nl = NULL;
		if (in->end > in->start) {
			p = in->buf + in->start;
			nl = memchr(p, '\n', in->end - in->start);
		}
		if (nl || in->eof)
			break;
		/* a line that is already too long: no need to read it all */
		if (in->end - in->start > (size_t)LINEIN_MAX + 2)
			break;
		err = linein_fill(in);
		if (err == -ENOMEM)
			return linein_err(in, err, strerror(-err));
		if (err) {
			if (in->lineno)
				snprintf(why, sizeof(why), "read error after "
					 "line %lu: %s", in->lineno,
					 strerror(-err));
			else
				snprintf(why, sizeof(why), "read error: %s",
					 strerror(-err));
			in->lineno = 0;
			return linein_err(in, err, why);
		}
	}
	if (in->start == in->end)
		return 0;
	len = nl ? (size_t)(nl - p) + 1 : in->end - in->start;
	in->lineno++;
	if (linein_check(p, len, why, sizeof(why)))
		return linein_err(in, -EINVAL, why);
	in->start += len;
	if (nl) {
		*nl = '\0';
		len--;
	} else {
		p[len] = '\0';	/* linein_fill() leaves a byte of room */
	}
	if (len && p[len - 1] == '\r')
		p[--len] = '\0';
	*line = p;
	return 1;
}

/* 1: *line is the next line (newline stripped), 0: end, <0: error. */
int linein_next(struct linein *in, char **line)
{
	char *p;

	if (in->end > in->start && (p = linein_fast(in))) {
		*line = p;
		return 1;
	}
	return linein_slow(in, line);
}

void linein_close(struct linein *in)
{
	if (in->fd >= 0 && !in->is_stdin)
		close(in->fd);
	in->fd = -1;
	free(in->buf);
	in->buf = NULL;
}
