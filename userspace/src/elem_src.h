/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_ELEM_SRC_H
#define NFTLAB_ELEM_SRC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Where each element of a transaction came from (a file and line, a
 * command-line argument, a generated element), for kernel errors about an
 * element and the one it duplicates.  Elements are numbered in the order
 * they are written; consecutive elements from consecutive lines of one
 * source share one run, so a bulk load from a file costs one comparison
 * per element and a run per gap (comment, blank line).  Each element
 * message records the number of its first element.
 */
enum elem_src_kind {
	ELEM_SRC_FILE,		/* label "FILE", line: line number */
	ELEM_SRC_ARGS,		/* label "" or "SCRIPT:LINE", line: word */
	ELEM_SRC_GEN,		/* label as ARGS, line: element number */
	ELEM_SRC_MERGED,	/* label as ARGS: auto-merge's intervals */
};

struct elem_src_run {
	uint64_t first;		/* first element of the run */
	uint32_t src;		/* index into srcs */
	unsigned long line;	/* line of element first */
};

struct elem_src_msg {
	uint32_t seq;		/* message sequence number */
	uint64_t first;		/* its first element */
};

struct elem_src_name {
	char *label;
	enum elem_src_kind kind;
};

struct elem_srcmap {
	struct elem_src_name *srcs;
	size_t nsrc, capsrc;
	struct elem_src_run *runs;
	size_t nruns, capruns;
	struct elem_src_msg *msgs;
	size_t nmsgs, capmsgs;
	uint64_t next;		/* number of the next element to be written */
	/* what continues the last run: element, source, line */
	uint64_t cont_elem;
	uint32_t cont_src;
	unsigned long cont_line;
};

/* label: a trailing ": " (of a script's "FILE:LINE: ") is dropped */
int elem_src_add(struct elem_srcmap *m, enum elem_src_kind kind,
		 const char *label, uint32_t *src);
int elem_src_run_start(struct elem_srcmap *m, uint64_t elem, uint32_t src,
		       unsigned long line);

/* Element elem came from line of src. */
static inline int elem_src_note(struct elem_srcmap *m, uint64_t elem,
				uint32_t src, unsigned long line)
{
	if (elem == m->cont_elem && line == m->cont_line && src == m->cont_src &&
	    m->nruns) {
		m->cont_elem++;
		m->cont_line++;
		return 0;
	}
	return elem_src_run_start(m, elem, src, line);
}

int elem_src_msg(struct elem_srcmap *m, uint32_t seq, uint64_t first);
int elem_src_msg_first(const struct elem_srcmap *m, uint32_t seq,
		       uint64_t *first);
/* "dup.txt:7", "argument 6", "load.cmds:3 word 7"; -ENOENT: unknown */
int elem_src_describe(const struct elem_srcmap *m, uint64_t elem, char *buf,
		      size_t len);
void elem_src_reset(struct elem_srcmap *m);
void elem_src_free(struct elem_srcmap *m);

#endif
