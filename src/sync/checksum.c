/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * checksum.c: -c over a remote shell, where neither end holds both files:
 * each end sums its own, the receiver's sums travel in its manifest. A sum
 * is 128 bits: zlib's CRC-32, a 64-bit multiply-and-rotate hash of the
 * 8-byte words, and the length; it tells apart files an accident changed
 * (as rsync's quick check means it), not files an adversary forged.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "sync.h"

#define SUM_BUF (256u << 10)

static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w * 0x9e3779b97f4a7c15u;
	h = (h << 27) | (h >> 37);
	return h * 0xff51afd7ed558ccdu + 0x94d049bb133111ebu;
}

int sync_checksum(int fd, unsigned char sum[SYNC_SUM_LEN])
{
	static unsigned char buf[SUM_BUF];
	uLong crc = crc32(0L, Z_NULL, 0);
	uint64_t h = 0x243f6a8885a308d3u, len = 0;
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf), (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		crc = crc32(crc, buf, (uInt)n);
		size_t i = 0;
		for (; i + 8 <= (size_t)n; i += 8) {
			uint64_t w;
			memcpy(&w, buf + i, 8);
			h = mix(h, w);
		}
		uint64_t tail = 0;
		memcpy(&tail, buf + i, (size_t)n - i);
		h = mix(h, tail ^ ((uint64_t)((size_t)n - i) << 56));
		len += (uint64_t)n;
	}
	h = mix(h, len);
	for (int i = 0; i < 4; i++)
		sum[i] = (unsigned char)(crc >> (8 * i));
	for (int i = 0; i < 8; i++)
		sum[4 + i] = (unsigned char)(h >> (8 * i));
	for (int i = 0; i < 4; i++)
		sum[12 + i] = (unsigned char)(len >> (8 * i));
	return 0;
}
