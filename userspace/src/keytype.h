/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_KEYTYPE_H
#define NFTLAB_KEYTYPE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A set key as nft describes it: one or more fields ("ipv4_addr .
 * inet_service").  Each field is stored in the key padded to 4 bytes (one
 * 32-bit register); the kernel key type is nft's datatype id of each field,
 * 6 bits per field, first field in the highest bits.
 */
enum {
	KT_MAX_FIELDS = 5,	/* 6 bits per field in the 32-bit key type id */
	KT_MAX_KEY = 64,	/* 16 32-bit registers */
	KT_TYPE_BITS = 6,
};

/* nft datatype ids of the key types nftlab knows (nftables enum datatypes) */
enum { TYPE_IPADDR = 7, TYPE_IP6ADDR = 8, TYPE_ETHERADDR = 9,
       TYPE_INET_PROTOCOL = 12, TYPE_INET_SERVICE = 13, TYPE_MARK = 19 };

enum kt_byteorder {
	KT_HOST_ENDIAN = 1,	/* nft's BYTEORDER_HOST_ENDIAN */
	KT_BIG_ENDIAN = 2,	/* nft's BYTEORDER_BIG_ENDIAN */
};

struct kt_field {
	uint32_t type;		/* nft datatype id (TYPE_IPADDR, ...) */
	uint32_t len;		/* value bytes, before padding */
	uint32_t offset;	/* offset in the (padded) key */
};

/* Map data: NFT_DATA_VERDICT, or one field type (KT_DATA_NONE: a set). */
enum {
	KT_DATA_NONE = 0,
	KT_DATA_VERDICT = 0xffffff00,	/* NFT_DATA_VERDICT */
};

struct keytype {
	unsigned int nfields;
	struct kt_field f[KT_MAX_FIELDS];
	uint32_t key_len;	/* sum of padded field lengths */
	int interval;		/* interval set: host-endian fields (mark) are
				 * stored big endian, as nft does for ranges */
	uint32_t dtype;		/* map data type, KT_DATA_NONE for sets */
	uint32_t dlen;		/* map data length (0 for verdicts) */
};

int keytype_parse(struct keytype *kt, const char *spec);
int keytype_from_id(struct keytype *kt, uint32_t id, uint32_t key_len);
uint32_t keytype_id(const struct keytype *kt);
int keytype_format(const struct keytype *kt, char *buf, size_t len);
int keytype_set_data(struct keytype *kt, const char *spec);
int keytype_set_data_id(struct keytype *kt, uint32_t id, uint32_t len);
const char *keytype_field_name(uint32_t type);
enum kt_byteorder keytype_field_byteorder(uint32_t type);

#endif
