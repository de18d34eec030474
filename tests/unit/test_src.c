// SPDX-License-Identifier: GPL-2.0
/* Unit tests: where the elements of a transaction came from (elem_src.c). */
#include <errno.h>
#include <string.h>

#include "elem_src.h"
#include "tap.h"

static int says(const struct elem_srcmap *m, uint64_t elem, const char *want)
{
	char buf[128];

	return !elem_src_describe(m, elem, buf, sizeof(buf)) &&
	       !strcmp(buf, want);
}

void test_src(struct tap *t)
{
	struct elem_srcmap m = { 0 };
	uint32_t args, file, gen, merged;
	uint64_t first = 0;
	int ok = 1;

	ok &= !elem_src_add(&m, ELEM_SRC_ARGS, "", &args);
	ok &= !elem_src_add(&m, ELEM_SRC_FILE, "e.txt", &file);
	ok &= !elem_src_add(&m, ELEM_SRC_GEN, "s.cmds:3: ", &gen);
	ok &= !elem_src_note(&m, 0, args, 6) && !elem_src_note(&m, 1, args, 7);
	/* lines 1-3, a comment, lines 5-6: two runs */
	for (uint64_t e = 2; e < 7; e++)
		ok &= !elem_src_note(&m, e, file, e < 5 ? e - 1 : e);
	ok &= !elem_src_run_start(&m, 7, gen, 1);
	ok &= !elem_src_add(&m, ELEM_SRC_MERGED, "s.cmds:4: ", &merged);
	ok &= !elem_src_run_start(&m, 2000, merged, 1);
	ok &= !elem_src_msg(&m, 40, 0) && !elem_src_msg(&m, 41, 5);
	TAP_OK(t, ok, "elem_src: sources, notes and messages recorded");
	TAP_OK(t, m.nruns == 5, "elem_src: consecutive lines share a run (%zu runs)",
	       m.nruns);
	TAP_OK(t, says(&m, 0, "argument 6") && says(&m, 1, "argument 7"),
	       "elem_src: command-line elements name their argument");
	TAP_OK(t, says(&m, 2, "e.txt:1") && says(&m, 4, "e.txt:3") &&
	       says(&m, 5, "e.txt:5") && says(&m, 6, "e.txt:6"),
	       "elem_src: file elements name their line across a comment");
	TAP_OK(t, says(&m, 7, "s.cmds:3 --gen element 1") &&
	       says(&m, 1006, "s.cmds:3 --gen element 1000"),
	       "elem_src: generated elements of a script line, one run");
	TAP_OK(t, says(&m, 2000, "s.cmds:4 auto-merged") &&
	       !elem_src_add(&m, ELEM_SRC_MERGED, "", &merged) &&
	       !elem_src_run_start(&m, 3000, merged, 1) &&
	       says(&m, 3000, "auto-merged"),
	       "elem_src: auto-merge's intervals are named as such");
	TAP_OK(t, !elem_src_msg_first(&m, 41, &first) && first == 5 &&
	       elem_src_msg_first(&m, 42, &first) == -ENOENT,
	       "elem_src: a message's first element by sequence number");
	elem_src_reset(&m);
	TAP_OK(t, m.nruns == 0 && elem_src_describe(&m, 0, (char[8]){0}, 8) == -ENOENT,
	       "elem_src: reset forgets everything");
	elem_src_free(&m);
}
