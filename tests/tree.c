/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.c: test trees and a plain reference walk, independent of libsweep.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <cmocka.h>
#include "tree.h"

char *tree_scratch(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	assert_true(asprintf(&path, "%s/sweep-unit.XXXXXX", tmp ? tmp : "/tmp") > 0);
	assert_non_null(mkdtemp(path));
	return path;
}

char *tree_scratch_fast(void)
{
	struct statfs s;
	if (statfs("/dev/shm", &s) == 0 && s.f_type == 0x01021994 &&
	    access("/dev/shm", W_OK) == 0) {
		char *path = strdup("/dev/shm/sweep-unit.XXXXXX");
		assert_non_null(path);
		if (mkdtemp(path))
			return path;
		free(path);
	}
	return tree_scratch();
}

int tree_setup(void **state)
{
	*state = tree_scratch();
	return 0;
}

int tree_setup_fast(void **state)
{
	*state = tree_scratch_fast();
	return 0;
}

int tree_teardown(void **state)
{
	tree_remove(*state);
	free(*state);
	return 0;
}

void tree_remove(const char *path)
{
	char *cmd;
	assert_true(asprintf(&cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", path, path) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

void tree_mkdir(int dirfd, const char *name)
{
	assert_int_equal(mkdirat(dirfd, name, 0755), 0);
}

int tree_open_dir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

void tree_file(int dirfd, const char *name, off_t size, int synced)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	char buf[8192];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('a' + (i + (size_t)size) % 26);
	for (off_t done = 0; done < size;) {
		size_t len = size - done < (off_t)sizeof(buf) ? (size_t)(size - done) : sizeof(buf);
		assert_int_equal(write(fd, buf, len), (ssize_t)len);
		done += (off_t)len;
	}
	if (synced)
		assert_int_equal(fsync(fd), 0);
	assert_int_equal(close(fd), 0);
}

void strlist_add(struct strlist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		assert_non_null(l->v);
	}
	l->v[l->n] = strdup(s);
	assert_non_null(l->v[l->n++]);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strlist_sort(struct strlist *l)
{
	qsort(l->v, l->n, sizeof(*l->v), by_str);
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct strlist){0};
}

void strlist_assert_equal(struct strlist *a, struct strlist *b)
{
	strlist_sort(a);
	strlist_sort(b);
	size_t i = 0;
	while (i < a->n && i < b->n && strcmp(a->v[i], b->v[i]) == 0)
		i++;
	if (i < a->n || i < b->n)
		fail_msg("lists differ at %zu (sizes %zu, %zu): '%s' vs '%s'", i, a->n, b->n,
		         i < a->n ? a->v[i] : "(end)", i < b->n ? b->v[i] : "(end)");
}

struct ancestor {
	dev_t dev;
	ino_t ino;
	const struct ancestor *up;
};

static void ref_walk(int atfd, const char *name, char *path, int follow,
                     const struct ancestor *up, struct strlist *out)
{
	strlist_add(out, path);
	struct stat st;
	int flags = follow ? 0 : AT_SYMLINK_NOFOLLOW;
	if (fstatat(atfd, name, &st, flags) < 0 &&
	    fstatat(atfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISDIR(st.st_mode))
		return;
	for (const struct ancestor *a = up; a; a = a->up)
		if (a->dev == st.st_dev && a->ino == st.st_ino)
			return;
	int fd = openat(atfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return;
	DIR *d = fdopendir(fd);
	assert_non_null(d);
	struct ancestor me = { st.st_dev, st.st_ino, up };
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *child;
		assert_true(asprintf(&child, "%s/%s", path, de->d_name) > 0);
		ref_walk(dirfd(d), de->d_name, child, follow, &me, out);
		free(child);
	}
	closedir(d);
}

void tree_reference_walk(const char *root, int follow, struct strlist *out)
{
	char *path = strdup(root);
	assert_non_null(path);
	ref_walk(AT_FDCWD, root, path, follow, NULL, out);
	free(path);
}

long long tree_sweep_place(int fd, int *runs, long long *first)
{
	struct {
		struct fiemap map;
		struct fiemap_extent ext[32];
	} req;
	memset(&req, 0, sizeof(req));
	req.map.fm_length = FIEMAP_MAX_OFFSET;
	req.map.fm_extent_count = 32;
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	if (runs)
		*runs = 0;
	if (first)
		*first = -1;
	if (ioctl(fd, FS_IOC_FIEMAP, &req) < 0)
		return -1;
	/* the extents read: written ones, within the size */
	struct fiemap_extent *v = req.ext;
	uint32_t n = 0;
	bool known = req.map.fm_mapped_extents > 0 &&
	             (req.ext[req.map.fm_mapped_extents - 1].fe_flags & FIEMAP_EXTENT_LAST);
	for (uint32_t i = 0; i < req.map.fm_mapped_extents; i++) {
		if (req.ext[i].fe_logical >= (uint64_t)st.st_size) {
			known = true;
			break;
		}
		if (!(req.ext[i].fe_flags & FIEMAP_EXTENT_UNWRITTEN))
			v[n++] = req.ext[i];
	}
	const uint32_t unknown = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC;
	if (n == 0 || (v[0].fe_flags & unknown))
		return -1;
	if (first)
		*first = (long long)v[0].fe_physical;
	int count = 1;
	uint64_t last_start = v[0].fe_physical;
	for (uint32_t i = 1; i < n; i++) {
		if (v[i].fe_flags & unknown)
			known = false;
		if (v[i].fe_physical == v[i - 1].fe_physical + v[i - 1].fe_length &&
		    v[i].fe_logical == v[i - 1].fe_logical + v[i - 1].fe_length)
			continue;
		count++;
		if (v[i].fe_physical > last_start)
			last_start = v[i].fe_physical;
	}
	if (!known)
		count = 9;
	if (runs)
		*runs = count;
	if (count >= 2 && count <= 8 && st.st_nlink == 1 && st.st_size <= 2 << 20)
		return (long long)last_start;
	return (long long)v[0].fe_physical;
}

int tree_fs_sorts(const char *path)
{
	struct statfs s;
	assert_int_equal(statfs(path, &s), 0);
	return s.f_type == 0xEF53 || s.f_type == 0x58465342 || s.f_type == 0x9123683E;
}
