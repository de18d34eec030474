/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_SYNC_H
#define NFTLAB_SYNC_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "elem.h"
#include "setinfo.h"
#include "sync_tab.h"

/*
 * set sync FAMILY TABLE SET --file FILE: the set's elements made those of
 * the file in one transaction (cmd_sync.c runs it):
 *  1. sync_file_read(): the file's elements into a sync_tab (single-field
 *     interval sets: merged first, as --auto-merge merges);
 *  2. sync_diff(): one GETSETELEM dump, each element looked up as it
 *     arrives: an element the file does not hold is deleted (written to
 *     the batch at once), one it holds gets a state; then every record
 *     that is not in the set as asked is added, and in sets with timeouts
 *     those that stay are added again with NFTA_SET_ELEM_EXPIRATION, which
 *     the kernel (6.12 on) takes as a renewal of an element it holds;
 *  3. one batch, deletions first, sent with the generation ID read before
 *     step 1 (NFNL_BATCH_GENID): if another process committed anything
 *     since, the kernel refuses the whole batch (-ERESTART) and the sync
 *     starts again from step 2, at most --retries times.
 */

/* How a set's elements are keyed and written. */
enum sync_kind {
	SYNC_PLAIN,	/* hash sets: the key */
	SYNC_CONCAT,	/* concatenated interval sets: KEY, KEY_END */
	SYNC_SINGLE,	/* single-field interval sets: start element, end
			 * element at end + 1 (none up to the top) */
};

struct ctx;

struct sync_count {
	uint64_t set;		/* elements the set held */
	uint64_t del;		/* deleted (not in the file, or replaced) */
	uint64_t add;		/* added (new, or replaced) */
	uint64_t retime;	/* timeout changed in place */
	uint64_t renew;		/* timeout renewed */
	uint64_t keyless;	/* catch-all elements: the file cannot hold them */
};

struct sync_job {
	struct ctx *c;
	const struct setinfo *si;
	enum sync_kind kind;
	int merge;		/* single-field interval set: file merged */
	int dry;		/* --dry-run */
	void *direct;		/* sync_cold(): elements straight to this
				 * writer, no table */
	struct sync_tab tab;
	uint64_t file_elems;	/* elements in the file, before merging */
	struct sync_count n;	/* this attempt */
	/* --stats: nanoseconds */
	uint64_t t_read, t_dump, t_write, t_kernel, t_replies;
	uint64_t batch_bytes;
};

int sync_job_init(struct sync_job *j, struct ctx *c, const struct setinfo *si);
/* the key of the table: key, or start and end for interval sets */
void sync_key(const struct sync_job *j, const uint8_t *key,
	      const uint8_t *key_end, uint8_t *out);
/* map data to record bytes and back (verdict maps: chain by number) */
int sync_data_pack(struct sync_job *j, const struct elem_data *d,
		   uint8_t *out, int *new_chain);
void sync_data_unpack(const struct sync_job *j, const uint8_t *in,
		      struct elem_data *d);
/* "KEY [timeout T] [: DATA]" as element list prints it */
void sync_format(const struct sync_job *j, const uint8_t *key,
		 const uint8_t *key_end, uint64_t tmo,
		 const struct elem_data *d, char *buf, size_t len);

int sync_file_read(struct sync_job *j, const char *path);
/*
 * One attempt: dump, compare, write (dry run: print) and commit.  0, or
 * -ERESTART when the ruleset moved on from genid (nothing applied).
 */
int sync_diff(struct sync_job *j, uint32_t genid, int retrying);

/*
 * An empty set (1; 0 not empty): the file is written straight into the
 * batch by sync_cold(), as element add --file writes it, without the
 * table; single-field intervals still merged.  -ERESTART as sync_diff().
 */
int sync_set_empty(const struct setinfo *si);
int sync_cold(struct sync_job *j, const char *path, uint32_t genid);
/* sync_cold(): one element of the file (or a merged interval) */
int sync_put_direct(struct sync_job *j, const uint8_t *key,
		    const uint8_t *key_end, const struct elem_data *d,
		    uint64_t tmo);

/* NFT_MSG_GETGEN: the ruleset's generation ID */
struct nl;
int sync_genid(struct nl *nl, uint32_t *genid);

static inline uint64_t sync_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

#endif
