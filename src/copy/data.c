/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * data.c: the bytes of a regular file. In GNU cp's order of means: a clone
 * (FICLONE) under --reflink; copy_file_range(), which lets the kernel move
 * the bytes (or share them) without a trip through user space; read() and
 * write() where it cannot (another file system type, EXDEV, ENOSYS,
 * EINVAL...). Holes of the source stay holes (--sparse=auto: found with
 * SEEK_DATA/SEEK_HOLE, only the data between them copied), runs of zero
 * blocks become holes too under --sparse=always, and --sparse=never writes
 * every byte. From a stream (sweep-sync's receiver), the bytes are read
 * and written, zero blocks left out under --sparse=always. Every call is checked: a failure is reported in GNU cp's
 * words ("error reading", "error writing", "error copying") and ends the
 * file's copy there.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "copyint.h"

#define CFR_CHUNK ((size_t)1 << 30)

struct range {
	struct copy *c;
	int sfd, dfd;
	const char *src;
	size_t blksize;
	bool cfr;        /* copy_file_range() still worth trying */
	bool holes;      /* something was skipped: set the size at the end */
	bool in_order;   /* the copy is no regular file (a fifo, a pipe, a
	                    device: cp f /dev/stdout): written in order, its
	                    holes as zeros, as GNU cp writes it */
};

static bool looks_sparse(const struct stat *st)
{
	return st->st_size > 0 && (uint64_t)st->st_blocks * 512 < (uint64_t)st->st_size;
}

static bool all_zero(const char *p, size_t n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

static int write_error(struct range *r)
{
	r->c->write_failed = true;
	copy_error(r->c, errno, "error writing %s", cq(r->c, 0, sb_str(&r->c->shown)));
	return -1;
}

/* Whether copy_file_range()'s err can only be the destination's: the
 * source is only read. */
static bool cfr_write_error(int err)
{
	return err == ENOSPC || err == EDQUOT || err == EFBIG;
}

/* Write n bytes of buf at off, leaving zero blocks out under
 * --sparse=always. Returns 0 or -1 (reported). */
static int put(struct range *r, const char *buf, size_t n, off_t off)
{
	/* (never into a copy that had bytes there: --append's) */
	bool skip_zeros = r->c->o->sparse == COPY_SPARSE_ALWAYS && !r->c->appending && !r->in_order;
	size_t done = 0;
	while (done < n) {
		size_t k = skip_zeros ? r->blksize - (size_t)((off + (off_t)done) % (off_t)r->blksize)
		                      : n - done;
		if (k > n - done)
			k = n - done;
		if (skip_zeros && all_zero(buf + done, k)) {
			r->holes = true;
			done += k;
			continue;
		}
		ssize_t w = r->in_order ? write(r->dfd, buf + done, k)
		                        : pwrite(r->dfd, buf + done, k, off + (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return write_error(r);
		if (w == 0) {
			errno = ENOSPC;
			return write_error(r);
		}
		done += (size_t)w;
	}
	return 0;
}

static bool cfr_unsupported(int err)
{
	return err == ENOSYS || err == EXDEV || err == EINVAL || err == EOPNOTSUPP ||
	       err == EBADF || err == ETXTBSY || err == EPERM;
}

/* Copy len bytes (or to the end of the source, len UINT64_MAX) from off.
 * Returns the bytes copied, or -1 (reported). */
static int64_t copy_range(struct range *r, off_t off, uint64_t len)
{
	struct copy *c = r->c;
	uint64_t done = 0;
	while (done < len) {
		uint64_t left = len - done;
		ssize_t n;
		if (r->cfr) {
			off_t so = off + (off_t)done, dof = so;
			/* under a rate limit or a watch, chunks small enough to
			 * keep to it and show life */
			size_t chunk = c->o->bwlimit || c->o->alive ? COPY_BUFSIZE : CFR_CHUNK;
			n = copy_file_range(r->sfd, &so, r->dfd, &dof,
			                    left < chunk ? (size_t)left : chunk, 0);
			/* nothing copied from a file that says it has data (procfs,
			 * sysfs on some kernels): read(2) it, as GNU cp does */
			if (done == 0 && (n == 0 || (n < 0 && cfr_unsupported(errno)))) {
				r->cfr = false;
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			/* an error either side could have (EIO): where a failed
			 * write ends the run (sweep-sync's, as rsync's receiver),
			 * read(2) and write(2) say which side it is; GNU cp says
			 * "error copying" */
			if (n < 0 && !cfr_write_error(errno) && c->o->write_error_ends) {
				r->cfr = false;
				continue;
			}
			if (n < 0) {
				c->write_failed |= cfr_write_error(errno);
				copy_error(c, errno, "error copying %s to %s", cq(c, 0, r->src),
				           cq(c, 1, sb_str(&c->shown)));
				return -1;
			}
		} else {
			n = pread(r->sfd, c->buf, left < COPY_BUFSIZE ? (size_t)left : COPY_BUFSIZE,
			          off + (off_t)done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				copy_error(c, errno, "error reading %s", cq(c, 0, r->src));
				return -1;
			}
			if (n > 0 && put(r, c->buf, (size_t)n, off + (off_t)done) < 0)
				return -1;
		}
		if (n == 0)
			break;
		done += (uint64_t)n;
		c->bytes += (uint64_t)n;
		throttle_wrote(c, (uint64_t)n);
	}
	return (int64_t)done;
}

/* A hole of len bytes: left in a regular copy (its size set at the end),
 * written as zeros where the copy is written in order, as GNU cp's
 * lseek_copy writes them, with its message. Returns 0 or -1 (reported). */
static int put_hole(struct range *r, off_t len)
{
	struct copy *c = r->c;
	if (!r->in_order) {
		r->holes = true;
		return 0;
	}
	memset(c->buf, 0, len < (off_t)COPY_BUFSIZE ? (size_t)len : COPY_BUFSIZE);
	while (len > 0) {
		ssize_t w = write(r->dfd, c->buf, len < (off_t)COPY_BUFSIZE ? (size_t)len : COPY_BUFSIZE);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->write_failed = true;
			copy_error(c, w < 0 ? errno : ENOSPC, "%s: write failed",
			           diag_quote_style(c->d, 0, QUOTE_SHELL_COLON, sb_str(&c->shown)));
			return -1;
		}
		len -= w;
	}
	return 0;
}

/* Copy the data regions of a sparse source, up to its size as stat-ed.
 * Returns the logical size copied, or -1. */
static int64_t copy_regions(struct range *r, off_t size)
{
	off_t pos = 0;
	while (pos < size) {
		off_t data = lseek(r->sfd, pos, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break; /* only a hole is left */
		if (data < 0)
			return copy_range(r, pos, UINT64_MAX) < 0 ? -1 : size;
		off_t hole = lseek(r->sfd, data, SEEK_HOLE);
		if (hole < 0 || hole > size)
			hole = size;
		if (data > pos && put_hole(r, data - pos) < 0)
			return -1;
		int64_t n = copy_range(r, data, (uint64_t)(hole - data));
		if (n < 0)
			return -1;
		pos = data + (off_t)n;
		if (n < hole - data)
			return pos; /* the file shrank */
	}
	if (pos < size && put_hole(r, size - pos) < 0)
		return -1;
	return size;
}

/* --append: where the copy differs from n bytes of buf at off (n when it
 * does not, or is not looked at), said once (append_failed). -1 when the
 * copy cannot be read (reported). */
static ssize_t differs_at(struct range *r, const char *buf, size_t n, off_t off, char *mine)
{
	struct copy *c = r->c;
	if (!c->o->append_verify || off >= c->append_from)
		return (ssize_t)n;
	size_t k = n, got = 0;
	if ((off_t)k > c->append_from - off)
		k = (size_t)(c->append_from - off);
	while (got < k) {
		ssize_t m = pread(r->dfd, mine + got, k - got, off + (off_t)got);
		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0) {
			copy_error(c, m < 0 ? errno : EIO, "error reading %s",
			           cq(c, 0, sb_str(&c->shown)));
			return -1;
		}
		got += (size_t)m;
	}
	for (size_t i = 0; i < k; i++)
		if (buf[i] != mine[i]) {
			if (c->o->append_failed)
				c->o->append_failed(c->o->arg, c->entry, sb_str(&c->rel));
			c->append_from = off + (off_t)i; /* all from here is written */
			return (ssize_t)i;
		}
	return (ssize_t)n;
}

/* The bytes from the stream of copy_stream(); under --append those the
 * copy has already are passed over (compared, under append_verify).
 * Returns the size written, or -1 (reported). */
static int64_t copy_stream_data(struct range *r)
{
	struct copy *c = r->c;
	char *mine = c->append_from ? malloc(COPY_BUFSIZE) : NULL;
	off_t off = 0;
	int64_t ret = -1;
	if (c->append_from && !mine) {
		copy_error(c, ENOMEM, "%s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	for (;;) {
		ssize_t n = c->o->read_data(c->o->arg, c->buf, COPY_BUFSIZE);
		if (n < 0) {
			copy_error(c, errno, "error reading %s", cq(c, 0, r->src));
			break;
		}
		if (n == 0) {
			/* (--append: fewer bytes than the copy has, the source cut,
			 * are data_copy()'s to see: the copy is not cut here) */
			ret = off;
			break;
		}
		if (differs_at(r, c->buf, (size_t)n, off, mine) < 0)
			break;
		/* what the copy has already (the same, or not looked at; a
		 * difference moved append_from back to it) */
		ssize_t skip = c->append_from <= off ? 0
		               : c->append_from - off < n ? (ssize_t)(c->append_from - off) : n;
		if (skip < n && put(r, c->buf + skip, (size_t)(n - skip), off + skip) < 0)
			break;
		off += n;
		c->bytes += (uint64_t)(n - skip);
	}
	free(mine);
	return ret;
}

/* Clone sfd into dfd: 0 done, 1 not (to be copied), -1 failed (reported,
 * under --reflink=always). Under auto, a file system that cannot clone
 * (EOPNOTSUPP: ext4; EXDEV: another one written to) is not asked again for
 * its next files: one failed call a file, 100,000 on a tree of as many
 * files onto ext4. Known by the source's file system: the destination is
 * one tree, on one file system nearly always (a clone missed where it is
 * not is a copy). EINVAL can be one file's: btrfs refuses a NOCOW one. */
static int clone_file(struct copy *c, int sfd, const struct stat *st, int dfd, const char *src)
{
	bool always = c->o->reflink == COPY_REFLINK_ALWAYS;
	uint64_t dev1 = (uint64_t)st->st_dev + 1;
	if (!always && atomic_load_explicit(&c->noclone_dev, memory_order_relaxed) == dev1)
		return 1;
	if (ioctl(dfd, FICLONE, sfd) == 0) {
		c->bytes += (uint64_t)st->st_size;
		return 0;
	}
	if (always) {
		copy_error(c, errno, "failed to clone %s from %s", cq(c, 0, sb_str(&c->shown)),
		           cq(c, 1, src));
		return -1;
	}
	if (errno == EOPNOTSUPP || errno == EXDEV || errno == ENOTTY)
		atomic_store_explicit(&c->noclone_dev, dev1, memory_order_relaxed);
	return 1;
}

/* --append from a local source: the bytes past what the copy has (after,
 * under append_verify, a look at what it has: from the first that differs
 * all is written). Returns the size, or -1 (reported). */
static int64_t append_range(struct range *r)
{
	struct copy *c = r->c;
	char *mine = c->o->append_verify ? malloc(COPY_BUFSIZE) : NULL;
	if (c->o->append_verify && !mine) {
		copy_error(c, ENOMEM, "%s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	off_t from = c->append_from;
	for (off_t off = 0; mine && off < from;) {
		size_t want = from - off < (off_t)COPY_BUFSIZE ? (size_t)(from - off) : COPY_BUFSIZE;
		ssize_t n = pread(r->sfd, c->buf, want, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) { /* the source shrank, or cannot be read: from here */
			if (n < 0) {
				copy_error(c, errno, "error reading %s", cq(c, 0, r->src));
				free(mine);
				return -1;
			}
			break;
		}
		if (differs_at(r, c->buf, (size_t)n, off, mine) < 0) {
			free(mine);
			return -1;
		}
		if (c->append_from < from)
			break; /* differs there */
		off += n;
	}
	free(mine);
	int64_t n = copy_range(r, c->append_from, UINT64_MAX);
	if (n < 0)
		return -1;
	/* a source that shrank while it was read: the copy ends where it does
	 * (else a later --append leaves a copy longer than its source) */
	if (ftruncate(r->dfd, c->append_from + n) < 0) {
		c->write_failed = true;
		copy_error(c, errno, "failed to truncate %s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	return c->append_from + n;
}

/* listed_size: the source came shorter than listed (cut while read), as
 * rsync says it ("read errors mapping", 23), and as rsync's second try,
 * the copy is made again, whole, from what the file holds now; a stream's
 * bytes cannot be asked again, and the copy is given up. Returns its end,
 * or -1 (reported). */
static int64_t copied_again(struct range *r, const char *src)
{
	struct copy *c = r->c;
	copy_error(c, ENODATA, "read errors mapping %s", cq(c, 0, src));
	if (c->o->read_data)
		return -1;
	if (ftruncate(r->dfd, 0) < 0) {
		c->write_failed = true;
		copy_error(c, errno, "failed to truncate %s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	r->holes = false;
	return copy_range(r, 0, UINT64_MAX);
}

int data_copy(struct copy *c, int sfd, const struct stat *st, int dfd, bool made, const char *src)
{
	bool append = c->append_from && !c->o->read_data; /* (a stream's: copy_stream_data) */
	/* (a file this run made is regular: only one found in place is looked
	 * at, which spares every new file a system call) */
	struct stat dst;
	bool in_order = !made && fstat(dfd, &dst) == 0 && !S_ISREG(dst.st_mode);
	/* (into a fifo, no clone under auto; under always, the kernel's
	 * refusal, as GNU cp's) */
	if (c->o->reflink != COPY_REFLINK_NEVER && !c->o->read_data && !append &&
	    (!in_order || c->o->reflink == COPY_REFLINK_ALWAYS)) {
		int r = clone_file(c, sfd, st, dfd, src);
		if (r <= 0)
			return r;
	}
	/* the bytes are to be written, not shared: allocated first (where they
	 * cannot be, the writes find out, and no space is said there) */
	if (c->o->preallocate && c->o->sparse != COPY_SPARSE_ALWAYS && st->st_size > 0 &&
	    !c->append_from && !in_order)
		(void)fallocate(dfd, 0, 0, st->st_size);
	struct range r = {
		.c = c, .sfd = sfd, .dfd = dfd, .src = src,
		.blksize = st->st_blksize > 0 ? (size_t)st->st_blksize : 4096,
		/* the kernel cannot be asked to leave zeros out (an append
		 * writes all it is given), nor not to share the blocks: btrfs's
		 * copy_file_range clones, which --reflink=never refuses */
		.cfr = (c->o->sparse != COPY_SPARSE_ALWAYS || append) &&
		       c->o->reflink != COPY_REFLINK_NEVER && !in_order,
		.in_order = in_order,
	};
	int64_t end;
	bool regions = false;
	if (append)
		end = append_range(&r);
	else if (c->o->read_data)
		end = copy_stream_data(&r);
	/* (in order, as GNU cp's, whatever --sparse says: its holes are
	 * zeros written, and a failure is said as GNU says it) */
	else if ((regions = (c->o->sparse != COPY_SPARSE_NEVER || in_order) && looks_sparse(st)))
		end = copy_regions(&r, st->st_size);
	else
		end = copy_range(&r, 0, UINT64_MAX);
	/* (a sparse source's end is where its last hole ends: the size it
	 * has now says whether it was cut) */
	struct stat now;
	if (end >= 0 && c->o->listed_size && regions && fstat(sfd, &now) == 0 && now.st_size < end)
		end = now.st_size;
	if (end >= 0 && c->o->listed_size && end < st->st_size)
		end = copied_again(&r, src);
	/* an --append from a stream that failed (the sender could not read,
	 * the source was cut, no space): the copy is left as it was, not
	 * longer with bytes that are not the file's (its bytes cannot be
	 * asked for again) */
	if (end < 0 && c->appending && c->o->read_data)
		(void)ftruncate(dfd, c->append_from);
	if (end < 0)
		return -1;
	if (r.holes && ftruncate(dfd, (off_t)end) < 0) {
		copy_error(c, errno, "failed to extend %s", cq(c, 0, sb_str(&c->shown)));
		return -1;
	}
	return 0;
}

int data_synced(struct copy *c, int fd)
{
	if (!c->o->fsync_files || fsync(fd) == 0)
		return 0;
	c->write_failed = true;
	copy_error(c, errno, "fsync failed on %s", cq(c, 0, sb_str(&c->shown)));
	return -1;
}
