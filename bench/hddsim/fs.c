/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fs.c: the FUSE face of the drive. The mount holds two files: "disk", the
 * image, every read and write of which waits on the arm before touching the
 * backing file; and "stats", a snapshot of the counters taken at open. Both
 * are direct_io so that no page cache sits between the kernel and the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fuse.h>
#include "hddsim.h"

#define STATS_MAX 2048

struct hd_fs {
	struct hd_params *p;
	struct hd_geom *g;
	struct hd_arm arm;
	int fd;           /* the backing image */
	time_t born;
};

static struct hd_fs *fs_self(void)
{
	return fuse_get_context()->private_data;
}

static void *fs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	struct hd_fs *fs = fs_self();
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->use_ino = 0;
	/* Let the loop device's concurrent requests all reach the drive's queue. */
	conn->max_background = 128;
	conn->congestion_threshold = 96;
	int e = hd_arm_start(&fs->arm, fs->p, fs->g);
	if (e) { /* requests would wait for ever: better not to serve at all */
		fprintf(stderr, "hddsim: cannot start the arm: %s\n", strerror(e));
		fuse_exit(fuse_get_context()->fuse);
	}
	return fs;
}

static void fs_destroy(void *data)
{
	struct hd_fs *fs = data;
	hd_arm_stop(&fs->arm);
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct hd_fs *fs = fs_self();
	(void)fi;
	memset(st, 0, sizeof(*st));
	st->st_atime = st->st_mtime = st->st_ctime = fs->born;
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (strcmp(path, "/disk") == 0) {
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		st->st_size = (off_t)fs->p->size;
		st->st_blocks = st->st_size / 512;
	} else if (strcmp(path, "/stats") == 0) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = STATS_MAX;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off, (void)fi, (void)flags;
	if (strcmp(path, "/") != 0)
		return -ENOTDIR;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "disk", NULL, 0, 0);
	fill(buf, "stats", NULL, 0, 0);
	return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
	struct hd_fs *fs = fs_self();
	fi->direct_io = 1;
	if (strcmp(path, "/disk") == 0)
		return 0;
	if (strcmp(path, "/stats") != 0)
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	char *text = malloc(STATS_MAX);
	if (!text)
		return -ENOMEM;
	struct hd_stats s;
	hd_arm_stats(&fs->arm, &s);
	if (hd_stats_format(&s, fs->p, fs->g, text, STATS_MAX) < 0) {
		free(text);
		return -EOVERFLOW;
	}
	fi->fh = (uintptr_t)text;
	return 0;
}

static int fs_release(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	free((char *)(uintptr_t)fi->fh);
	return 0;
}

static int stats_read(struct fuse_file_info *fi, char *buf, size_t len, off_t off)
{
	const char *text = (const char *)(uintptr_t)fi->fh;
	size_t n = strlen(text);
	if ((size_t)off >= n)
		return 0;
	if (len > n - (size_t)off)
		len = n - (size_t)off;
	memcpy(buf, text + off, len);
	return (int)len;
}

/* Clips [off, off+len) to the disk; returns the bytes left, or -1 past the end. */
static long long clip(const struct hd_fs *fs, off_t off, size_t len)
{
	if (off < 0 || (uint64_t)off > fs->p->size)
		return -1;
	uint64_t room = fs->p->size - (uint64_t)off;
	return (long long)(len < room ? len : room);
}

static int fs_read(const char *path, char *buf, size_t len, off_t off,
		   struct fuse_file_info *fi)
{
	struct hd_fs *fs = fs_self();
	if (fi->fh)
		return stats_read(fi, buf, len, off);
	(void)path;
	long long n = clip(fs, off, len);
	if (n <= 0)
		return 0;
	hd_arm_submit(&fs->arm, (uint64_t)off, (uint64_t)n, 0);
	ssize_t got = pread(fs->fd, buf, (size_t)n, off);
	if (got < 0)
		return -errno;
	if (got < n) /* past the end of a short image: zeros, as a disk reads */
		memset(buf + got, 0, (size_t)(n - got));
	return (int)n;
}

static int fs_write(const char *path, const char *buf, size_t len, off_t off,
		    struct fuse_file_info *fi)
{
	struct hd_fs *fs = fs_self();
	(void)path, (void)fi;
	long long n = clip(fs, off, len);
	if (n <= 0)
		return len ? -ENOSPC : 0;
	hd_arm_submit(&fs->arm, (uint64_t)off, (uint64_t)n, 1);
	for (long long done = 0; done < n;) {
		ssize_t w = pwrite(fs->fd, buf + done, (size_t)(n - done), off + done);
		if (w < 0)
			return -errno;
		done += w;
	}
	return (int)n;
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, "/disk") != 0)
		return -EACCES;
	return (uint64_t)size == fs_self()->p->size ? 0 : -EPERM;
}

static int fs_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)path, (void)datasync, (void)fi;
	return 0; /* writes reach the backing file before they are acknowledged */
}

static const struct fuse_operations fs_ops = {
	.init = fs_init,
	.destroy = fs_destroy,
	.getattr = fs_getattr,
	.readdir = fs_readdir,
	.open = fs_open,
	.release = fs_release,
	.read = fs_read,
	.write = fs_write,
	.truncate = fs_truncate,
	.fsync = fs_fsync,
};

/* Mounts and serves until unmounted; returns fuse_main's status. */
int hd_fs_main(int argc, char **argv, struct hd_params *p, struct hd_geom *g, int fd)
{
	struct hd_fs fs = { .p = p, .g = g, .fd = fd, .born = time(NULL) };
	return fuse_main(argc, argv, &fs_ops, &fs);
}
