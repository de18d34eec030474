// SPDX-License-Identifier: GPL-2.0
/* Netlink socket: open, one request/reply exchange, error decoding. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <linux/netfilter.h>
#include <linux/netlink.h>

#include "nl.h"

int nl_open(struct nl *nl)
{
	int one = 1;

	nl->sock = mnl_socket_open(NETLINK_NETFILTER);
	if (!nl->sock)
		return -errno;
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		mnl_socket_close(nl->sock);
		nl->sock = NULL;
		return err;
	}
	/* best effort: older kernels lack them, errors are still reported */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);
	return 0;
}

void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

static int nl_err_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_err *e = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			strncpy(e->msg, mnl_attr_get_str(attr), sizeof(e->msg) - 1);
			e->msg[sizeof(e->msg) - 1] = '\0';
		}
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			e->offset = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

/* Decode an NLMSG_ERROR message: errno, seq of the request, ext ack. */
int nl_parse_err(const struct nlmsghdr *nlh, struct nl_err *e, uint32_t *seq)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t off;

	memset(e, 0, sizeof(*e));
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err)))
		return -EBADMSG;
	e->err = err->error;
	*seq = err->msg.nlmsg_seq;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	off = sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if (mnl_nlmsg_size(off) <= nlh->nlmsg_len)
		mnl_attr_parse(nlh, (unsigned int)off, nl_err_attr_cb, e);
	return 0;
}

/*
 * Send req and read replies until NLMSG_DONE or the ACK; cb sees every
 * other message of the request's sequence number.  Kernel errors land in e.
 */
int nl_talk(struct nl *nl, const struct nlmsghdr *req, nl_msg_cb cb,
	    void *data, void *buf, size_t buflen, struct nl_err *e)
{
	memset(e, 0, sizeof(*e));
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t len = mnl_socket_recvfrom(nl->sock, buf, buflen);
		const struct nlmsghdr *nlh = buf;
		int rem;

		if (len < 0)
			return -errno;
		rem = (int)len;
		for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
			uint32_t seq;
			int ret;

			if (nlh->nlmsg_seq != req->nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				ret = nl_parse_err(nlh, e, &seq);
				if (ret)
					return ret;
				return e->err;
			}
			if (!cb)
				continue;
			ret = cb(nlh, data);
			if (ret < 0)
				return ret;
		}
	}
}

static const struct { const char *name; uint16_t family; } families[] = {
	{ "ip", NFPROTO_IPV4 }, { "ip6", NFPROTO_IPV6 },
	{ "inet", NFPROTO_INET }, { "arp", NFPROTO_ARP },
	{ "bridge", NFPROTO_BRIDGE }, { "netdev", NFPROTO_NETDEV },
};

const char *nl_family_name(uint16_t family)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].family == family)
			return families[i].name;
	return "unknown";
}

int nl_family_parse(const char *name, uint16_t *family)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (!strcmp(families[i].name, name)) {
			*family = families[i].family;
			return 0;
		}
	}
	return -EAFNOSUPPORT;
}
