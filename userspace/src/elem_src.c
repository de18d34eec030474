// SPDX-License-Identifier: GPL-2.0
/* Where the elements of a transaction came from (elem_src.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem_src.h"
#include "vec.h"

int elem_src_add(struct elem_srcmap *m, enum elem_src_kind kind,
		 const char *label, uint32_t *src)
{
	size_t n = strlen(label);
	char *copy;

	if (vec_grow((void **)&m->srcs, &m->capsrc, m->nsrc, sizeof(*m->srcs)))
		return -ENOMEM;
	if (n >= 2 && !strcmp(label + n - 2, ": "))
		n -= 2;		/* a script's "FILE:LINE: " prefix */
	copy = strndup(label, n);
	if (!copy)
		return -ENOMEM;
	m->srcs[m->nsrc].label = copy;
	m->srcs[m->nsrc].kind = kind;
	*src = (uint32_t)m->nsrc++;
	return 0;
}

int elem_src_run_start(struct elem_srcmap *m, uint64_t elem, uint32_t src,
		       unsigned long line)
{
	struct elem_src_run *r;

	if (vec_grow((void **)&m->runs, &m->capruns, m->nruns, sizeof(*m->runs)))
		return -ENOMEM;
	r = &m->runs[m->nruns++];
	r->first = elem;
	r->src = src;
	r->line = line;
	m->cont_elem = elem + 1;
	m->cont_src = src;
	m->cont_line = line + 1;
	return 0;
}

int elem_src_msg(struct elem_srcmap *m, uint32_t seq, uint64_t first)
{
	if (vec_grow((void **)&m->msgs, &m->capmsgs, m->nmsgs, sizeof(*m->msgs)))
		return -ENOMEM;
	m->msgs[m->nmsgs].seq = seq;
	m->msgs[m->nmsgs].first = first;
	m->nmsgs++;
	return 0;
}

int elem_src_msg_first(const struct elem_srcmap *m, uint32_t seq,
		       uint64_t *first)
{
	for (size_t i = 0; i < m->nmsgs; i++) {
		if (m->msgs[i].seq == seq) {
			*first = m->msgs[i].first;
			return 0;
		}
	}
	return -ENOENT;
}

int elem_src_describe(const struct elem_srcmap *m, uint64_t elem, char *buf,
		      size_t len)
{
	const struct elem_src_run *r = NULL;
	unsigned long line;
	const char *label;
	size_t lo = 0, hi = m->nruns;

	/* the last run that starts at or before elem */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->runs[mid].first <= elem) {
			r = &m->runs[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (!r)
		return -ENOENT;
	line = r->line + (unsigned long)(elem - r->first);
	label = m->srcs[r->src].label;
	switch (m->srcs[r->src].kind) {
	case ELEM_SRC_FILE:
		snprintf(buf, len, "%s:%lu", label, line);
		break;
	case ELEM_SRC_ARGS:
		snprintf(buf, len, "%s%s%lu", label, *label ? " word " :
			 "argument ", line);
		break;
	case ELEM_SRC_GEN:
		snprintf(buf, len, "%s%s--gen element %lu", label,
			 *label ? " " : "", line);
		break;
	case ELEM_SRC_MERGED:
		snprintf(buf, len, "%s%sauto-merged", label, *label ? " " : "");
		break;
	}
	return 0;
}

void elem_src_reset(struct elem_srcmap *m)
{
	for (size_t i = 0; i < m->nsrc; i++)
		free(m->srcs[i].label);
	m->nsrc = m->nruns = m->nmsgs = 0;
	m->next = 0;
	m->cont_elem = 0;
	m->cont_src = 0;
	m->cont_line = 0;
}

void elem_src_free(struct elem_srcmap *m)
{
	elem_src_reset(m);
	free(m->srcs);
	free(m->runs);
	free(m->msgs);
	memset(m, 0, sizeof(*m));
}
