/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_NL_H
#define NFTLAB_NL_H

#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

/* A netfilter netlink socket with extended ACKs and capped ACK payloads. */
struct nl {
	struct mnl_socket *sock;
	uint32_t portid;
	uint32_t seq;		/* next sequence number to use */
};

/* The kernel's answer to a failed request. */
struct nl_err {
	int err;		/* negative errno, 0 if none */
	uint32_t offset;	/* NLMSGERR_ATTR_OFFS, 0 if absent */
	char msg[256];		/* NLMSGERR_ATTR_MSG, "" if absent */
};

typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *data);

int nl_open(struct nl *nl);
void nl_close(struct nl *nl);
int nl_parse_err(const struct nlmsghdr *nlh, struct nl_err *e,
		 uint32_t *seq);
int nl_talk(struct nl *nl, const struct nlmsghdr *req, nl_msg_cb cb,
	    void *data, void *buf, size_t buflen, struct nl_err *e);
const char *nl_family_name(uint16_t family);
int nl_family_parse(const char *name, uint16_t *family);

#endif
