/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * linkdest.c: --link-dest=DIR, rsync's rotating snapshots, and its kin
 * --compare-dest (what DIR holds as the source has it is left out of DEST,
 * and removed from it) and --copy-dest (copied, in silence, where DEST has
 * none). An entry is
 * looked up in each DIR in turn, under its path below DEST (a relative DIR
 * is taken from DEST, as rsync takes it); the first copy there that is the
 * source's (same kind, size and time, target or device, and the same
 * permissions, owner and group as the options preserve them) is hard-linked
 * into DEST instead of a copy, so an unchanged file costs no space in the
 * new snapshot. A directory is never linked.
 *
 * As in rsync, an entry of the same kind in DIR is the "basis" of a new
 * one even when it cannot be linked: -i's letters compare with it, not
 * "+++++++++", and nothing is counted as created. A file with the same
 * data but other attributes is shown "cf" (rsync copies it from DIR; the
 * bytes are the same, so this copies it from the source).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sync.h"

/* How far an entry in a DIR matches the source. */
enum match { M_NONE, M_BASIS, M_DATA, M_SAME };

int linkdest_add(struct sync *s, const char *dir)
{
	const char **v = reallocarray(s->link_dest, s->nlink_dest + 1, sizeof(*v));
	if (!v)
		return -1;
	s->link_dest = v;
	v[s->nlink_dest++] = dir;
	return 0;
}

const char *linkdest_option(enum alt_dest kind)
{
	return kind == ALT_COMPARE ? "compare-dest" : kind == ALT_COPY ? "copy-dest" : "link-dest";
}

/* "--link-dest arg does not exist: PATH", PATH absolute as rsync makes it. */
static void say_missing(const struct sync *s, const char *path)
{
	char *cwd = path[0] == '/' ? NULL : getcwd(NULL, 0);
	fflush(stdout);
	fprintf(stderr, "--%s arg does not exist: %s%s%s\n", linkdest_option(s->alt_dest),
	        cwd ? cwd : "", cwd ? "/" : "", path);
	free(cwd);
}

/* Open DIR below the first n bytes of dest. A DEST a dry run has not made
 * cannot be gone through: its ".." components then go back in the path
 * itself. Returns the descriptor, or -1 (said). */
static int open_dir(struct sync *s, const char *dest, size_t n, const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	int r = dir[0] == '/' || n == 0 ? sb_addstr(&path, dir)
	        : sb_printf(&path, "%.*s/%s", (int)n, dest, dir);
	int fd = r < 0 ? -1 : open(path.s, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && r == 0 && s->dry_run && dir[0] != '/') {
		while (n > 0 && strncmp(dir, "../", 3) == 0) {
			while (n > 0 && dest[n - 1] != '/')
				n--;
			while (n > 1 && dest[n - 1] == '/')
				n--;
			dir += 3;
		}
		struct strbuf lexical = STRBUF_INIT;
		if ((n ? sb_printf(&lexical, "%.*s/%s", (int)n, dest, dir)
		       : sb_addstr(&lexical, dir)) == 0)
			fd = open(lexical.s, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		sb_free(&lexical);
	}
	if (fd < 0 && r == 0)
		say_missing(s, path.s);
	sb_free(&path);
	return fd;
}

void linkdest_open(struct sync *s, const char *dest, bool dest_is_file)
{
	/* a file's name: its directory, if it names one */
	const char *slash = dest_is_file ? strrchr(dest, '/') : NULL;
	size_t n = dest_is_file ? (slash ? (size_t)(slash - dest) + 1 : 0) : strlen(dest);
	while (n > 1 && dest[n - 1] == '/')
		n--;
	if (!s->nlink_dest || !(s->link_dest_fd = calloc(s->nlink_dest, sizeof(int))))
		return;
	for (size_t i = 0; i < s->nlink_dest; i++)
		s->link_dest_fd[i] = open_dir(s, dest, n, s->link_dest[i]);
}

void linkdest_free(struct sync *s)
{
	for (size_t i = 0; s->link_dest_fd && i < s->nlink_dest; i++)
		if (s->link_dest_fd[i] >= 0)
			close(s->link_dest_fd[i]);
	free(s->link_dest_fd);
	free(s->link_dest);
	keymap_free(&s->link_dest_first);
}

/* Whether the targets of two symbolic links are the same. */
static bool same_target(struct sync *s, const struct sweep_entry *e, int fd, const char *path)
{
	struct strbuf other = STRBUF_INIT;
	bool same = sync_read_link(&s->name2, e->dirfd, e->name, e->st.st_size) &&
	            sync_read_link(&other, fd, path, e->st.st_size) &&
	            strcmp(s->name2.s, other.s) == 0;
	sb_free(&other);
	return same;
}

/* rsync's quick check of e against b (path in fd), kind by kind. */
static bool same_data(struct sync *s, const struct sweep_entry *e, int fd, const char *path,
                      const struct stat *b)
{
	const struct stat *st = &e->st;
	switch (sync_kind(st->st_mode)) {
	case K_REG:
		if (b->st_size != st->st_size)
			return false;
		/* over a remote shell the sender's sums speak of DEST's file,
		 * not of DIR's: never the same then */
		if (s->checksum)
			return !s->remote_source && !sync_bytes_differ(s, e, fd, path);
		return s->size_only || (!s->ignore_times &&
		                        sync_cmp_mtime(s, &b->st_mtim, &st->st_mtim) == 0);
	case K_LINK:
		return same_target(s, e, fd, path);
	case K_DEV:
		return b->st_rdev == st->st_rdev;
	default:
		return (b->st_mode & S_IFMT) == (st->st_mode & S_IFMT);
	}
}

/* The best match for e (rel: its path below DEST) in the DIRs, with its
 * status in b and its DIR in *fd. */
static enum match find(struct sync *s, const struct sweep_entry *e, const char *rel,
                       struct stat *b, int *fd)
{
	enum match best = M_NONE;
	struct stat st;
	for (size_t i = 0; i < s->nlink_dest && best != M_SAME; i++) {
		int dfd = s->link_dest_fd ? s->link_dest_fd[i] : -1;
		if (dfd < 0 || fstatat(dfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    sync_kind(st.st_mode) != sync_kind(e->st.st_mode))
			continue;
		enum match m = M_BASIS;
		char code[12] = "...........";
		/* (attributes that differ are not shared by a link either) */
		if (same_data(s, e, dfd, rel, &st))
			m = sync_attr_letters(s, &e->st, &st, code) ||
			    sync_xattr_letters(s, e, dfd, rel, code) ? M_DATA : M_SAME;
		if (m > best) {
			best = m;
			*b = st;
			*fd = dfd;
		}
	}
	return best;
}

/* Link name in pfd to rel in fd, over what is there (not a directory).
 * Returns whether it was linked; when not, it is copied, as rsync does. */
static bool link_one(struct sync *s, int fd, const char *rel, int pfd, const char *name,
                     const struct stat *dst)
{
	if (s->dry_run)
		return true;
	if (pfd < 0 || (dst && S_ISDIR(dst->st_mode)))
		return false;
	if (dst && unlinkat(pfd, name, 0) < 0 && errno != ENOENT)
		return false;
	return linkat(fd, rel, pfd, name, 0) == 0;
}

/* The -i line of e against its basis b (rel in fd); a file whose data goes
 * is counted as sent, for --stats. */
static void report_basis(struct sync *s, const struct sweep_entry *e, const char *shown,
                         const struct stat *b, int fd, const char *rel, enum match m)
{
	static const char kinds[K_NKINDS] = { 'f', 'd', 'L', 'D', 'S' };
	enum sync_kind k = sync_kind(e->st.st_mode);
	char code[12] = "c..........";
	code[1] = kinds[k];
	bool attrs = sync_attr_letters(s, &e->st, b, code);
	if (sync_xattr_letters(s, e, fd, rel, code))
		attrs = true;
	const char *target = NULL;
	if (k == K_LINK && sync_read_link(&s->name2, e->dirfd, e->name, e->st.st_size))
		target = s->name2.s;
	if (k == K_LINK && m == M_BASIS)
		code[2] = 'c', attrs = true;
	if (k == K_REG && m == M_BASIS) {
		code[0] = '>';
		if (s->checksum) /* (as a copy without DIR says its sums differ) */
			code[2] = 'c';
		if (b->st_size != e->st.st_size)
			code[3] = 's';
		if (!s->times)
			code[4] = 'T';
		s->n.transferred++;
		s->n.transferred_size += (uint64_t)e->st.st_size;
	}
	if (attrs || code[0] == '>')
		report_item(s, code, shown, k == K_DIR, target);
}

bool linkdest_new(struct sync *s, const struct sweep_entry *e, const char *shown,
                  const char *rel, int pfd, const char *name, const struct stat *dst,
                  enum copy_verdict *v)
{
	struct stat b;
	int fd = -1;
	enum sync_kind k = sync_kind(e->st.st_mode);
	enum match m = find(s, e, rel, &b, &fd);
	/* --compare-dest: DIR's copy is enough, none made; --copy-dest: one
	 * made, in silence (rsync copies DIR's; the bytes are the source's) */
	if (m == M_SAME && k != K_DIR && s->alt_dest != ALT_LINK) {
		*v = s->alt_dest == ALT_COMPARE ? COPY_LEAVE : COPY_MAKE;
		return true;
	}
	if (m == M_SAME && k != K_DIR && link_one(s, fd, rel, pfd, name, dst)) {
		if (s->hard_links && e->st.st_nlink > 1) /* for linkdest_follower() */
			keymap_put(&s->link_dest_first, (uint64_t)e->st.st_dev,
			           (uint64_t)e->st.st_ino, (uint64_t)b.st_ino);
		/* KEEP: the engine remembers it as its inode's first name
		 * (-H), and sets nothing on it, having found no old copy */
		*v = dst ? COPY_LEAVE : COPY_KEEP;
		return true;
	}
	if (m == M_NONE || (k != K_DIR && k != K_REG && k != K_LINK))
		return false;
	report_basis(s, e, shown, &b, fd, rel, m == M_SAME ? M_DATA : m);
	*v = COPY_MAKE;
	return true;
}

bool linkdest_existing(struct sync *s, const struct sweep_entry *e, const char *rel, int pfd,
                       const char *name, const struct stat *dst, enum copy_verdict *v)
{
	struct stat b;
	int fd = -1;
	if (find(s, e, rel, &b, &fd) != M_SAME)
		return false;
	*v = COPY_LEAVE;
	switch (s->alt_dest) {
	case ALT_COMPARE: /* rsync removes the copy DIR's makes needless */
		if (!s->dry_run && pfd >= 0 && unlinkat(pfd, name, 0) < 0) {
			/* (it stays as it was, not as the source has it: said, 23) */
			report_error(s, errno, "delete_file: unlink(%s) failed", rel);
			s->partial = true;
		}
		return true;
	case ALT_COPY: /* as without it */
		return false;
	default:
		if (b.st_dev == dst->st_dev && b.st_ino == dst->st_ino)
			return false; /* linked already: the quick check finds it unchanged */
		return link_one(s, fd, rel, pfd, name, dst);
	}
}

bool linkdest_follower(struct sync *s, const struct sweep_entry *e, const char *below)
{
	struct stat b;
	int fd = -1;
	uint64_t *first = keymap_get(&s->link_dest_first, (uint64_t)e->st.st_dev,
	                             (uint64_t)e->st.st_ino);
	return first && find(s, e, below, &b, &fd) == M_SAME && b.st_ino == *first;
}
