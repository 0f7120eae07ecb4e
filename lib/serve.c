/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * serve.c: serving one name of the metadata queue.
 *
 * Serving stat-s the name (statx, in queue order: this is what makes the
 * inode-table reads one sweep) and decides what becomes of it: a directory is
 * handed out and read on the next call, a regular file goes to the data queue
 * (block order) or is opened at once (other orders), anything else is handed
 * out as it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "internal.h"

static int stat_at(int dirfd, const char *name, bool follow, struct stat *st)
{
	struct statx sx;
	int flags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
	if (statx(dirfd, name, flags, STATX_BASIC_STATS, &sx) < 0)
		return -1;
	*st = (struct stat){
		.st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor),
		.st_ino = sx.stx_ino,
		.st_mode = sx.stx_mode,
		.st_nlink = sx.stx_nlink,
		.st_uid = sx.stx_uid,
		.st_gid = sx.stx_gid,
		.st_rdev = makedev(sx.stx_rdev_major, sx.stx_rdev_minor),
		.st_size = (off_t)sx.stx_size,
		.st_blksize = sx.stx_blksize,
		.st_blocks = (blkcnt_t)sx.stx_blocks,
		.st_atim = { sx.stx_atime.tv_sec, sx.stx_atime.tv_nsec },
		.st_mtim = { sx.stx_mtime.tv_sec, sx.stx_mtime.tv_nsec },
		.st_ctim = { sx.stx_ctime.tv_sec, sx.stx_ctime.tv_nsec },
	};
	return 0;
}

/* Stat following links when asked; a dangling link is reported as the link
 * itself, as find -L and du -L do (a loop of links stays an error, ELOOP,
 * as it is for them). */
static int stat_entry(int dirfd, const char *name, bool follow, struct stat *st)
{
	if (stat_at(dirfd, name, follow, st) == 0)
		return 0;
	if (follow && errno == ENOENT) {
		int saved = errno;
		if (stat_at(dirfd, name, false, st) == 0 && S_ISLNK(st->st_mode))
			return 0;
		errno = saved;
	}
	return -1;
}

/* stat_entry, timed where the judgement of the device asks (latency.c):
 * a big directory's read hides whether it came from the device, the
 * stats of its names tell; a few of them again, what a stat from the
 * cache costs on this machine now. */
static int timed_stat(struct sweep *sw, int dirfd, const char *name, bool follow,
                      struct stat *st)
{
	if (!sw_latency_times_stat(&sw->lat, sw->warm != NULL))
		return stat_entry(dirfd, name, follow, st);
	uint64_t start = sw_now_ns();
	int r = stat_entry(dirfd, name, follow, st);
	if (r != 0)
		return r;
	sw_note_stat(&sw->lat, sw_now_ns() - start);
	if (sw_latency_wants_restat(&sw->lat)) {
		struct stat again;
		start = sw_now_ns();
		if (stat_entry(dirfd, name, follow, &again) == 0)
			sw_note_restat(&sw->lat, sw_now_ns() - start);
	}
	return 0;
}

static mode_t type_of(unsigned char d_type)
{
	switch (d_type) {
	case DT_REG: return S_IFREG;
	case DT_LNK: return S_IFLNK;
	case DT_FIFO: return S_IFIFO;
	case DT_SOCK: return S_IFSOCK;
	case DT_CHR: return S_IFCHR;
	case DT_BLK: return S_IFBLK;
	default: return 0;
	}
}

bool sw_type_suffices(const struct sweep *sw, unsigned char d_type, bool follow)
{
	mode_t type = type_of(d_type);
	return (sw->opt.flags & SWEEP_NOSTAT) && type && !(type == S_IFLNK && follow);
}

/* Under SWEEP_NOSTAT, whether the directory's word on v is all the walk
 * needs (sw_type_suffices), then in st. This is what lets find -name
 * answer without reading a single inode. */
static bool type_is_enough(const struct sweep *sw, const struct sw_name *v, bool follow,
                           struct stat *st)
{
	if (v->root || !sw_type_suffices(sw, v->type, follow))
		return false;
	mode_t type = type_of(v->type);
	memset(st, 0, sizeof(*st));
	st->st_mode = type;
	st->st_ino = v->ino;
	return true;
}

/* Whether a helper's stat of v (taken without following links) is the one
 * the walk would take now; then it is in st. */
static bool stated_ahead(struct sweep *sw, const struct sw_name *v, bool follow,
                         struct stat *st)
{
	if (!v->st || (follow && S_ISLNK(v->st->st_mode)))
		return false;
	*st = *v->st;
	sw->stats.names_stated_ahead++;
	return true;
}

/* Serve v: returns the entry to hand out, or NULL when v produced none (it
 * was queued for data or filtered out) and the walk should go on. Its node,
 * if any, is freed on the next call or now. */
const struct sweep_entry *sw_serve_name(struct sweep *sw, const struct sw_name *v)
{
	int depth = v->parent ? v->parent->depth + 1 : 0;
	bool follow = sw->opt.follow == SWEEP_FOLLOW_ALL ||
	              (v->root && sw->opt.follow == SWEEP_FOLLOW_ROOTS);
	int pfd = sw_parent_fd(sw, v->parent, v->basefd);
	int err = pfd < 0 && pfd != AT_FDCWD ? errno : 0;
	struct stat st;
	bool ahead = !err && stated_ahead(sw, v, follow, &st);
	bool nostat = !err && !ahead && type_is_enough(sw, v, follow, &st);
	if (!err && !ahead && !nostat && timed_stat(sw, pfd, v->name, follow, &st) < 0)
		err = errno;
	sw_ent_fill(sw, err ? SWEEP_ERROR : SWEEP_FILE, err ? NULL : &st, pfd, depth, v->parent);
	if (nostat)
		sw->ent.flags |= SWEEP_E_NOSTAT;
	if (v->root)
		sw->ent.flags |= SWEEP_E_ROOT;
	bool named = sw_path_build(sw, v->parent, v->name, v->namelen) == 0;
	if (err || !named) {
		sw->rel.done_node = v->node;
		return named ? sw_emit_error(sw, SWEEP_OP_STAT, err)
		             : sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
	}
	follow = follow && !S_ISLNK(st.st_mode);
	if (sw->opt.filter && sw->opt.filter(&sw->ent, sw->opt.filter_arg) == SWEEP_PRUNE) {
		if (v->node)
			sw_node_release(sw, v->node);
		return NULL;
	}
	if (S_ISDIR(st.st_mode))
		return sw_emit_dir(sw, v, pfd, &st, follow);
	if (S_ISREG(st.st_mode) && sw->data_by_block) {
		int fd;
		int r = sw_data_queue(sw, v, pfd, &st, follow, &fd);
		if (r == 0)
			return NULL;
		sw->rel.done_node = v->node;
		if (r < 0)
			return sw_emit_error(sw, SWEEP_OP_NOMEM, ENOMEM);
		return sw_emit_regular(sw, v, pfd, follow, fd);
	}
	sw->rel.done_node = v->node;
	if (S_ISREG(st.st_mode) && sw->data_inline)
		return sw_emit_regular(sw, v, pfd, follow, -1);
	sw_note_link(sw, true);
	return &sw->ent;
}

/* Serve node n of the queue (see sw_serve_name). */
const struct sweep_entry *sw_serve_node(struct sweep *sw, struct sw_node *n)
{
	const struct sw_name v = {
		.name = n->name, .namelen = n->namelen, .parent = n->parent, .st = n->st,
		.ino = n->ino, .basefd = n->basefd, .type = n->type, .root = n->root, .node = n,
	};
	return sw_serve_name(sw, &v);
}
