// SPDX-License-Identifier: GPL-2.0
/* Checked line input for --file and -f (see linein.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linein.h"
#include "quote.h"

static int linein_err(struct linein *in, int err, const char *msg)
{
	struct qbuf q;

	fprintf(stderr, "nftlab: %s%s%s", in->op, *in->op ? ": " : "",
		quote(&q, in->path));
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
	in->path = path;
	in->op = op;
	if (!strcmp(path, "-")) {
		if (stdin_used)
			return linein_err(in, -EINVAL, "standard input is "
					  "already read by this run");
		in->f = stdin;
		in->is_stdin = 1;
		in->path = "<stdin>";
		return 0;
	}
	in->f = fopen(path, "r");
	if (!in->f)
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
		unsigned char ch = (unsigned char)line[i];

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

/* 1: *line is the next line (newline stripped), 0: end, <0: error. */
int linein_next(struct linein *in, char **line)
{
	char why[96];
	ssize_t len;

	errno = 0;
	len = getline(&in->buf, &in->cap, in->f);
	if (len < 0) {
		int err = errno ? errno : EIO;

		if (!ferror(in->f))
			return 0;
		if (in->lineno)
			snprintf(why, sizeof(why), "read error after line %lu: "
				 "%s", in->lineno, strerror(err));
		else
			snprintf(why, sizeof(why), "read error: %s",
				 strerror(err));
		in->lineno = 0;
		return linein_err(in, -err, why);
	}
	in->lineno++;
	if (linein_check(in->buf, (size_t)len, why, sizeof(why)))
		return linein_err(in, -EINVAL, why);
	if (len && in->buf[len - 1] == '\n')
		in->buf[--len] = '\0';
	if (len && in->buf[len - 1] == '\r')
		in->buf[--len] = '\0';
	*line = in->buf;
	return 1;
}

void linein_close(struct linein *in)
{
	if (in->f && !in->is_stdin)
		fclose(in->f);
	in->f = NULL;
	free(in->buf);
	in->buf = NULL;
}
