/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-walk.c: libsweep on real trees.
 *
 * Each test builds a tree in a scratch directory, walks it, and checks one
 * property against something computed without the library: a plain recursive
 * walk, the test's own FIEMAP calls, or the file system's own answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "sweep.h"
#include "tree.h"

static const enum sweep_order all_orders[] = {
	SWEEP_ORDER_AUTO, SWEEP_ORDER_DISK, SWEEP_ORDER_INODE,
	SWEEP_ORDER_NAME, SWEEP_ORDER_NONE, SWEEP_ORDER_BLOCK,
};

/* Checks e's stat against the file system's own answer for its path, as
 * lstat, or stat where links are followed (a dangling link: the link).
 * Whoever took it (the walk, or a helper thread ahead of it), it must be the
 * same; atime aside, which reading data moves. */
static void assert_stat_is_the_paths(const struct sweep_entry *e, enum sweep_follow follow)
{
	if (e->kind == SWEEP_ERROR || e->kind == SWEEP_DIR_POST || (e->flags & SWEEP_E_NOSTAT))
		return;
	bool follows = follow == SWEEP_FOLLOW_ALL ||
	               (follow == SWEEP_FOLLOW_ROOTS && (e->flags & SWEEP_E_ROOT));
	struct stat st;
	if (!follows || stat(e->path, &st) < 0)
		assert_int_equal(lstat(e->path, &st), 0);
	assert_int_equal(e->st.st_dev, st.st_dev);
	assert_int_equal(e->st.st_ino, st.st_ino);
	assert_int_equal(e->st.st_mode, st.st_mode);
	assert_int_equal(e->st.st_nlink, st.st_nlink);
	assert_int_equal(e->st.st_uid, st.st_uid);
	assert_int_equal(e->st.st_gid, st.st_gid);
	assert_int_equal(e->st.st_size, st.st_size);
	assert_int_equal(e->st.st_blocks, st.st_blocks);
	assert_int_equal(e->st.st_rdev, st.st_rdev);
	assert_int_equal(e->st.st_mtim.tv_sec, st.st_mtim.tv_sec);
	assert_int_equal(e->st.st_mtim.tv_nsec, st.st_mtim.tv_nsec);
	assert_int_equal(e->st.st_ctim.tv_sec, st.st_ctim.tv_sec);
	assert_int_equal(e->st.st_ctim.tv_nsec, st.st_ctim.tv_nsec);
}

/* Every path the walk hands out once per entry (post-order entries and
 * directory read errors repeat a path already handed out: not counted),
 * each entry's stat checked on the way. */
static void collect(const char *root, const struct sweep_options *o, struct strlist *out,
                    struct sweep_stats *stats)
{
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, o);
	assert_non_null(sw);
	const struct sweep_entry *e;
	while ((e = sweep_next(sw))) {
		assert_int_equal(strlen(e->path), e->pathlen);
		assert_stat_is_the_paths(e, o->follow);
		if (e->kind == SWEEP_DIR_POST ||
		    (e->kind == SWEEP_ERROR && e->op == SWEEP_OP_READDIR))
			continue;
		strlist_add(out, e->path);
	}
	if (stats)
		sweep_get_stats(sw, stats, sizeof(*stats));
	sweep_close(sw);
}

/* Walk root in every order and directory order, with and without the
 * helper threads that warm the caches, following links as told and with
 * flags, and check that it hands out exactly the paths of ref. */
static void every_order_matches(const char *root, enum sweep_follow follow,
                                unsigned flags, struct strlist *ref)
{
	static const enum sweep_warm warms[] = { SWEEP_WARM_AUTO, SWEEP_WARM_ON };
	for (size_t i = 0; i < sizeof(all_orders) / sizeof(all_orders[0]); i++)
		for (int dirs = SWEEP_DIRS_AUTO; dirs <= SWEEP_DIRS_BLOCK; dirs++)
			for (size_t w = 0; w < sizeof(warms) / sizeof(warms[0]); w++) {
				struct sweep_options o = {
					.order = all_orders[i], .follow = follow, .flags = flags,
					.dir_order = (enum sweep_dir_order)dirs, .warm = warms[w],
				};
				struct strlist got = {0};
				struct sweep_stats s;
				collect(root, &o, &got, &s);
				strlist_assert_equal(&got, ref);
				strlist_free(&got);
				if (warms[w] == SWEEP_WARM_ON)
					assert_true(s.warm_threads > 0);
			}
}

/* A tree with the awkward cases: odd names, fifo, sparse file, hard links,
 * symbolic links (one dangling, one looping), empty files and directories. */
static void odd_tree(const char *root)
{
	int fd = tree_open_dir(AT_FDCWD, root);
	tree_mkdir(fd, "d");
	int d = tree_open_dir(fd, "d");
	tree_file(d, "plain", 5000, 0);
	tree_file(d, "empty", 0, 0);
	tree_file(d, "new\nline", 10, 0);
	tree_file(d, "bad\xff\xfeutf8", 10, 0);
	tree_file(d, "-dash", 10, 0);
	tree_mkdir(d, "emptydir");
	assert_int_equal(linkat(d, "plain", d, "hard1", 0), 0);
	assert_int_equal(linkat(d, "plain", fd, "hard2", 0), 0);
	assert_int_equal(symlinkat("plain", d, "sym"), 0);
	assert_int_equal(symlinkat("nowhere", d, "dangling"), 0);
	assert_int_equal(symlinkat("..", d, "loop"), 0);
	assert_int_equal(mkfifoat(d, "fifo", 0644), 0);
	int sp = openat(d, "sparse", O_WRONLY | O_CREAT, 0644);
	assert_true(sp >= 0);
	assert_int_equal(pwrite(sp, "end", 3, 1 << 30), 3);
	close(sp);
	for (int i = 0; i < 30; i++) {
		char name[32];
		snprintf(name, sizeof(name), "f%02d", i);
		tree_file(fd, name, i * 100, 0);
	}
	close(d);
	close(fd);
}

static void every_entry_once(void **state)
{
	const char *root = *state;
	odd_tree(root);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	every_order_matches(root, SWEEP_FOLLOW_NONE, 0, &ref);
	every_order_matches(root, SWEEP_FOLLOW_NONE, SWEEP_NODATA, &ref);
	strlist_free(&ref);
}

static void every_entry_once_following_links(void **state)
{
	const char *root = *state;
	odd_tree(root);
	struct strlist ref = {0};
	tree_reference_walk(root, 1, &ref);
	every_order_matches(root, SWEEP_FOLLOW_ALL, 0, &ref);
	strlist_free(&ref);
}

/* Without stat, the set of entries is the same and the type each one carries
 * (from the directory) is the type lstat gives; directories are still stat-ed. */
static void nostat_keeps_entries_and_types(void **state)
{
	const char *root = *state;
	odd_tree(root);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	for (size_t i = 0; i < sizeof(all_orders) / sizeof(all_orders[0]); i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = all_orders[i],
		                           .flags = SWEEP_NODATA | SWEEP_NOSTAT };
		struct sweep *sw = sweep_open(roots, &o);
		struct strlist got = {0};
		const struct sweep_entry *e;
		int unstated = 0;
		while ((e = sweep_next(sw))) {
			strlist_add(&got, e->path);
			struct stat st;
			assert_int_equal(fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW), 0);
			assert_int_equal(st.st_mode & S_IFMT, e->st.st_mode & S_IFMT);
			assert_int_equal(st.st_ino, e->st.st_ino);
			if (e->flags & SWEEP_E_NOSTAT) {
				unstated++;
				assert_int_not_equal(e->kind, SWEEP_DIR);
			} else {
				assert_int_equal(st.st_mtime, e->st.st_mtime);
			}
		}
		sweep_close(sw);
		assert_true(unstated > 30);
		strlist_assert_equal(&got, &ref);
		strlist_free(&got);
	}
	strlist_free(&ref);
	struct sweep_options bad = { .flags = SWEEP_NOSTAT };
	assert_null(sweep_open(NULL, &bad));
}

static void symlink_loop_is_an_error_under_L(void **state)
{
	const char *root = *state;
	odd_tree(root);
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .follow = SWEEP_FOLLOW_ALL };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	int loops = 0;
	while ((e = sweep_next(sw)))
		if (e->kind == SWEEP_ERROR && e->op == SWEEP_OP_LOOP) {
			loops++;
			assert_int_equal(e->error, ELOOP);
			assert_string_equal(e->name, "loop");
		}
	sweep_close(sw);
	assert_int_equal(loops, 1);
}

/* A chain of directories whose path is far longer than PATH_MAX. */
static void deep_paths_work(void **state)
{
	const char *root = *state;
	char name[201];
	memset(name, 'n', 200);
	name[200] = 0;
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < 40; i++) {
		tree_mkdir(fd, name);
		int next = tree_open_dir(fd, name);
		close(fd);
		fd = next;
	}
	tree_file(fd, "bottom", 1234, 0);
	close(fd);
	for (size_t i = 0; i < sizeof(all_orders) / sizeof(all_orders[0]); i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = all_orders[i] };
		struct sweep *sw = sweep_open(roots, &o);
		const struct sweep_entry *e;
		int found = 0, dirs = 0;
		while ((e = sweep_next(sw))) {
			assert_int_not_equal(e->kind, SWEEP_ERROR);
			dirs += e->kind == SWEEP_DIR;
			if (strcmp(e->name, "bottom") == 0) {
				found++;
				assert_int_equal(e->kind, SWEEP_DATA);
				assert_int_equal(e->pathlen, strlen(root) + 40 * 201 + 7);
				assert_true(e->pathlen > 4096);
				char buf[2000];
				assert_int_equal(read(e->fd, buf, sizeof(buf)), 1234);
				struct stat st;
				assert_int_equal(fstatat(e->dirfd, e->name, &st, 0), 0);
				assert_int_equal(st.st_ino, e->st.st_ino);
			}
		}
		sweep_close(sw);
		assert_int_equal(found, 1);
		assert_int_equal(dirs, 41);
	}
}

/* Walk root in disk order, checking that served inodes rise from the head
 * and wrap once per sweep. Returns the number of sweeps. */
static uint64_t cscan_sweeps(const char *root, enum sweep_dir_order dirs)
{
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .flags = SWEEP_NODATA,
	                           .dir_order = dirs };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	ino_t head = 0;
	uint64_t descents = 0, n = 0;
	while ((e = sweep_next(sw))) {
		assert_int_not_equal(e->kind, SWEEP_ERROR);
		n++;
		if (e->depth == 0)
			continue;
		if (e->st.st_ino < head)
			descents++;
		head = e->st.st_ino;
	}
	struct sweep_stats s;
	sweep_get_stats(sw, &s, sizeof(s));
	sweep_close(sw);
	assert_int_equal(n, 1 + 20 * 51);
	assert_int_equal(descents, s.sweeps);
	return s.sweeps;
}

/* top/dirNN/fileMM, 20 x 50, each file made before the directories it ends
 * up in and renamed there, so its inode number is lower. older_last: the
 * files of later directories are older (made first), else younger. */
static void renamed_tree(const char *top, bool older_last)
{
	tree_mkdir(AT_FDCWD, top);
	int fd = tree_open_dir(AT_FDCWD, top);
	char name[32], target[64];
	for (int step = 0; step < 20; step++) {
		int i = older_last ? 19 - step : step;
		for (int j = 0; j < 50; j++) {
			snprintf(name, sizeof(name), "old%02d-%02d", i, j);
			tree_file(fd, name, 0, 0);
		}
	}
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "dir%02d", i);
		tree_mkdir(fd, name);
		for (int j = 0; j < 50; j++) {
			char old[32];
			snprintf(old, sizeof(old), "old%02d-%02d", i, j);
			snprintf(target, sizeof(target), "dir%02d/file%02d", i, j);
			assert_int_equal(renameat(fd, old, fd, target), 0);
		}
	}
	close(fd);
}

/* Whether every file of top/dirNN has a lower inode than its directory, as
 * renamed_tree() means; the file system may reuse freed numbers instead. */
static bool files_below_their_dirs(const char *top)
{
	char path[4096 + 32];
	for (int i = 0; i < 20; i++) {
		struct stat dir, file;
		snprintf(path, sizeof(path), "%s/dir%02d", top, i);
		assert_int_equal(stat(path, &dir), 0);
		for (int j = 0; j < 50; j++) {
			snprintf(path, sizeof(path), "%s/dir%02d/file%02d", top, i, j);
			assert_int_equal(stat(path, &file), 0);
			if (file.st_ino > dir.st_ino)
				return false;
		}
	}
	return true;
}

/* Served inodes rise from the head and wrap once per sweep. Files older than
 * their directories sit behind the head when their directory is read, so
 * inode order wraps; reading directories in a phase of their own serves all
 * names of a level in one sweep, even where reading them one by one would
 * wrap once per directory (later directories holding older files). */
static void metadata_served_in_cscan_order(void **state)
{
	const char *root = *state;
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s/a", root);
	snprintf(b, sizeof(b), "%s/b", root);
	renamed_tree(a, false);
	renamed_tree(b, true);
	if (files_below_their_dirs(a))
		assert_true(cscan_sweeps(a, SWEEP_DIRS_INODE) > 0);
	else
		print_message("not checked: the file system gave the directories of %s lower "
		              "inode numbers than their files (freed numbers reused)\n", a);
	assert_true(cscan_sweeps(a, SWEEP_DIRS_BLOCK) <= 2);
	assert_true(cscan_sweeps(b, SWEEP_DIRS_BLOCK) <= 2);
	assert_int_equal(sweep_order_parse("disk"), SWEEP_ORDER_DISK);
}

/* Within each flush, files come in non-decreasing physical order, as the
 * test's own FIEMAP calls see it; every file comes exactly once. */
static void data_in_block_order_within_each_flush(void **state)
{
	const char *root = *state;
	if (!tree_fs_sorts(root))
		skip(); /* cmocka prints SKIPPED: FIEMAP needs ext4, xfs or btrfs */
	int fd = tree_open_dir(AT_FDCWD, root);
	/* written in an order unlike name or inode order, with delays in
	 * allocation, so that block order differs from both */
	for (int i = 0; i < 400; i++) {
		char name[32];
		int k = (i * 97) % 400;
		snprintf(name, sizeof(name), "%c/%03d", 'a' + k % 4, k);
		if (i < 4) {
			char dname[2] = { (char)('a' + i), 0 };
			tree_mkdir(fd, dname);
		}
		tree_file(fd, name, 4096 + (k % 7) * 3000, 0);
	}
	assert_int_equal(syncfs(fd), 0);
	/* out of the page cache, or the walk rightly reads them first, unsorted */
	for (int k = 0; k < 400; k++) {
		char name[32];
		snprintf(name, sizeof(name), "%c/%03d", 'a' + k % 4, k);
		int f = openat(fd, name, O_RDONLY);
		assert_true(f >= 0);
		assert_int_equal(posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED), 0);
		close(f);
	}
	close(fd);
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .max_entries = 37 };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	struct sweep_stats s;
	uint64_t flush = 0;
	long long last = -1;
	int files = 0, placed = 0;
	while ((e = sweep_next(sw))) {
		if (e->kind != SWEEP_DATA)
			continue;
		files++;
		sweep_get_stats(sw, &s, sizeof(s));
		if (s.flushes != flush) {
			flush = s.flushes;
			last = -1;
		}
		long long phys = tree_sweep_place(e->fd, NULL, NULL);
		if (phys < 0)
			continue;
		placed++;
		assert_true(phys >= last);
		last = phys;
	}
	sweep_get_stats(sw, &s, sizeof(s));
	sweep_close(sw);
	assert_int_equal(files, 400);
	assert_true(placed > 350);
	assert_true(s.flushes >= 400 / 37);
	assert_true(s.peak_data_entries <= 37);
}

/* Appends 4 KiB of 'z' to root/name, allocated at once. */
static void append_block(int dirfd, const char *name)
{
	int f = openat(dirfd, name, O_WRONLY | O_APPEND);
	assert_true(f >= 0);
	char z[4096];
	memset(z, 'z', sizeof(z));
	assert_int_equal(write(f, z, sizeof(z)), (ssize_t)sizeof(z));
	assert_int_equal(fsync(f), 0);
	assert_int_equal(close(f), 0);
}

/* A small file whose appended tail lies past its neighbours on the disk comes
 * after them, at its tail, and whole: its head was read as the sweep passed.
 * Sorted by its first byte it would come first (the check can fail). */
/* In dirfd: head, then four files that take the blocks after it, then a
 * block appended to head; all out of the page cache. Whether the tail landed
 * past some of the others (*between of them), as it usually does; on a file
 * system with holes left by other tests it may land anywhere. */
static bool split_layout(int dirfd, long long *head_first, long long *head_place,
                         int *between)
{
	tree_file(dirfd, "head", 4096, 1);
	const char *all[] = { "head", "mid0", "mid1", "mid2", "mid3" };
	for (int i = 1; i < 5; i++)
		tree_file(dirfd, all[i], 16384, 1);
	append_block(dirfd, "head");
	int runs;
	*between = 0;
	for (int i = 0; i < 5; i++) {
		int f = openat(dirfd, all[i], O_RDONLY);
		long long place = i ? tree_sweep_place(f, NULL, NULL)
		                    : (*head_place = tree_sweep_place(f, &runs, head_first));
		*between += i > 0 && place > *head_first && place < *head_place;
		assert_int_equal(posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED), 0);
		close(f);
	}
	return runs == 2 && *between > 0;
}

static void split_file_comes_at_its_last_run(void **state)
{
	const char *root = *state;
	if (!tree_fs_sorts(root))
		skip();
	int fd = tree_open_dir(AT_FDCWD, root);
	long long head_first, head_place;
	int between, attempt;
	char dir[4096];
	for (attempt = 0; attempt < 8; attempt++) {
		snprintf(dir, sizeof(dir), "t%d", attempt);
		tree_mkdir(fd, dir);
		int d = tree_open_dir(fd, dir);
		bool good = split_layout(d, &head_first, &head_place, &between);
		close(d);
		if (good)
			break;
	}
	close(fd);
	if (attempt == 8) {
		print_message("skipped: head's appended block never landed past another file\n");
		skip();
	}
	snprintf(dir, sizeof(dir), "%s/t%d", root, attempt);
	const char *roots[] = { dir, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	int files = 0, before_head = 0, head_seen = 0;
	long long last = -1;
	while ((e = sweep_next(sw))) {
		if (e->kind != SWEEP_DATA)
			continue;
		files++;
		long long place = tree_sweep_place(e->fd, NULL, NULL);
		assert_true(place >= last);
		last = place;
		if (strcmp(e->name, "head") != 0) {
			before_head += !head_seen && place > head_first && place < head_place;
			continue;
		}
		head_seen = 1;
		char buf[8192 + 1];
		assert_int_equal(read(e->fd, buf, sizeof(buf)), 8192);
		for (int i = 0; i < 8192; i++)
			assert_int_equal(buf[i], i < 4096 ? 'a' + (i + 4096) % 26 : 'z');
		assert_int_equal(e->phys, head_first); /* still its first byte */
	}
	struct sweep_stats s;
	sweep_get_stats(sw, &s, sizeof(s));
	sweep_close(sw);
	assert_int_equal(files, 5);
	assert_true(head_seen);
	assert_int_equal(before_head, between);
	assert_int_equal(s.files_split, 1);
}

/* FIEMAP calls for files: directories read by inode take none. */
static uint64_t fiemap_calls_of_walk(const char *root, int *unplaced)
{
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .dir_order = SWEEP_DIRS_INODE };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	*unplaced = 0;
	while ((e = sweep_next(sw)))
		*unplaced += e->kind == SWEEP_DATA && e->phys == SWEEP_PHYS_NONE;
	struct sweep_stats s;
	sweep_get_stats(sw, &s, sizeof(s));
	sweep_close(sw);
	return s.fiemap_calls;
}

/* Files whose data is in the page cache need no place in the sweep: no
 * FIEMAP call, handed out first; out of the cache, they are placed again. */
static void cached_files_need_no_placement(void **state)
{
	const char *root = *state;
	if (!tree_fs_sorts(root))
		skip();
	int fd = tree_open_dir(AT_FDCWD, root);
	char name[16], buf[8192];
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		tree_file(fd, name, 5000, 1);
		int f = openat(fd, name, O_RDONLY);
		assert_int_equal(read(f, buf, sizeof(buf)), 5000); /* now cached */
		close(f);
	}
	int unplaced;
	assert_int_equal(fiemap_calls_of_walk(root, &unplaced), 0);
	assert_int_equal(unplaced, 20);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		int f = openat(fd, name, O_RDONLY);
		assert_int_equal(posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED), 0);
		close(f);
	}
	close(fd);
	assert_int_equal(fiemap_calls_of_walk(root, &unplaced), 20);
	assert_int_equal(unplaced, 0);
}

/* Drop a/fNN and b/fNN (alternating) from the page cache. */
static void evict_all(int fd, int n)
{
	/* the walk's read-ahead may still be in flight: let it land first */
	assert_int_equal(syncfs(fd), 0);
	usleep(100000);
	for (int i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), "%c/f%02d", i % 2 ? 'b' : 'a', i);
		int f = openat(fd, name, O_RDONLY);
		assert_int_equal(posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED), 0);
		close(f);
	}
}

/* Walk roots a and b of root, alone or together: returns the flushes, and
 * checks every file comes once and, together, in one block order. */
static uint64_t flushes_of_two_roots(const char *root, bool together)
{
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s/a", root);
	snprintf(b, sizeof(b), "%s/b", root);
	const char *roots[] = { a, b, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK,
	                           .flags = together ? SWEEP_ROOTS_TOGETHER : 0 };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	long long last = -1;
	int files = 0, roots_seen = 0;
	while ((e = sweep_next(sw))) {
		roots_seen += (e->flags & SWEEP_E_ROOT) != 0;
		if (e->kind != SWEEP_DATA)
			continue;
		files++;
		long long phys = tree_sweep_place(e->fd, NULL, NULL);
		if (together && phys >= 0) {
			assert_true(phys >= last);
			last = phys;
		}
	}
	struct sweep_stats s;
	sweep_get_stats(sw, &s, sizeof(s));
	sweep_close(sw);
	assert_int_equal(files, 40);
	assert_int_equal(roots_seen, 2);
	return s.flushes;
}

/* Roots walked together share the elevator and the data sweep, as a tar -T
 * list of names needs; alone, each root has its own. */
static void roots_together_share_one_sweep(void **state)
{
	const char *root = *state;
	if (!tree_fs_sorts(root))
		skip();
	int fd = tree_open_dir(AT_FDCWD, root);
	tree_mkdir(fd, "a");
	tree_mkdir(fd, "b");
	for (int i = 0; i < 40; i++) {
		char name[32];
		/* alternate between the roots, so that their blocks interleave */
		snprintf(name, sizeof(name), "%c/f%02d", i % 2 ? 'b' : 'a', i);
		tree_file(fd, name, 6000, 1);
	}
	/* each walk announces, and so caches, what it reads: evict before each,
	 * or cached files rightly come unsorted */
	evict_all(fd, 40);
	assert_int_equal(flushes_of_two_roots(root, false), 2);
	evict_all(fd, 40);
	assert_int_equal(flushes_of_two_roots(root, true), 1);
	close(fd);
}

static enum sweep_verdict delete_victim(const struct sweep_entry *e, void *arg)
{
	(void)arg;
	if (strcmp(e->name, "victim") == 0)
		assert_int_equal(unlinkat(e->dirfd, e->name, 0), 0);
	return SWEEP_KEEP;
}

/* A file deleted between the metadata and data phases: an error entry with
 * its path and ENOENT, and the walk goes on. */
static void vanished_file_is_an_error_and_walk_goes_on(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	tree_file(fd, "victim", 100, 0);
	tree_file(fd, "other", 100, 0);
	close(fd);
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .filter = delete_victim };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	int errors = 0, others = 0;
	while ((e = sweep_next(sw))) {
		if (e->kind == SWEEP_ERROR) {
			errors++;
			assert_int_equal(e->op, SWEEP_OP_OPEN);
			assert_int_equal(e->error, ENOENT);
			assert_string_equal(e->name, "victim");
			assert_non_null(strstr(e->path, root));
		}
		others += e->kind == SWEEP_DATA && strcmp(e->name, "other") == 0;
	}
	sweep_close(sw);
	assert_int_equal(errors, 1);
	assert_int_equal(others, 1);
}

static enum sweep_verdict replace_victims(const struct sweep_entry *e, void *arg)
{
	(void)arg;
	if (strcmp(e->name, "to-fifo") == 0) {
		assert_int_equal(unlinkat(e->dirfd, e->name, 0), 0);
		assert_int_equal(mkfifoat(e->dirfd, e->name, 0644), 0);
	} else if (strcmp(e->name, "to-dir") == 0 && S_ISREG(e->st.st_mode)) {
		assert_int_equal(unlinkat(e->dirfd, e->name, 0), 0);
		assert_int_equal(mkdirat(e->dirfd, e->name, 0755), 0);
		int d = openat(e->dirfd, e->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(d >= 0);
		tree_file(d, "inside", 100, 0);
		close(d);
	}
	return SWEEP_KEEP;
}

/* A regular file replaced between its stat and its opening: a fifo comes
 * as what it is now, without data and without blocking the walk; a
 * directory is walked as the directory it became (as GNU tar does), its
 * post-order entry before its parent's. */
static void replaced_file_is_handed_out_as_it_is(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	tree_file(fd, "to-fifo", 100, 0);
	tree_file(fd, "to-dir", 100, 0);
	tree_file(fd, "kept", 100, 0);
	close(fd);
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .filter = replace_victims,
	                           .flags = SWEEP_POSTORDER };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	int fifo = 0, dir = 0, kept = 0, inside = 0, dir_post = 0, root_post = 0;
	while ((e = sweep_next(sw))) {
		assert_int_not_equal(e->kind, SWEEP_ERROR);
		assert_int_equal(root_post, 0); /* nothing after the root's end */
		if (e->kind == SWEEP_DIR_POST) {
			dir_post += strcmp(e->name, "to-dir") == 0;
			root_post += e->depth == 0;
			continue;
		}
		if (strcmp(e->name, "to-fifo") == 0) {
			assert_int_equal(e->kind, SWEEP_FILE);
			assert_true(S_ISFIFO(e->st.st_mode));
			assert_int_equal(e->fd, -1);
			fifo++;
		} else if (strcmp(e->name, "to-dir") == 0) {
			assert_int_equal(e->kind, SWEEP_DIR);
			assert_true(S_ISDIR(e->st.st_mode));
			assert_int_equal(dir_post, 0);
			dir++;
		} else if (strcmp(e->name, "inside") == 0) {
			assert_int_equal(e->kind, SWEEP_DATA);
			assert_int_equal(dir_post, 0);
			inside++;
		}
		kept += e->kind == SWEEP_DATA && strcmp(e->name, "kept") == 0;
	}
	sweep_close(sw);
	assert_int_equal(fifo, 1);
	assert_int_equal(dir, 1);
	assert_int_equal(inside, 1);
	assert_int_equal(dir_post, 1);
	assert_int_equal(root_post, 1);
	assert_int_equal(kept, 1);
}

/* As an unprivileged user: an unreadable file and an unreadable directory
 * are errors with their paths, the rest is walked. Run in a child that drops
 * root, when the test runs as root. */
static void unreadable_child(const char *root)
{
	if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
		_exit(77);
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, NULL);
	const struct sweep_entry *e;
	int file_err = 0, dir_err = 0, ok = 0, links = 0;
	while ((e = sweep_next(sw))) {
		/* both names of the unreadable file fail; neither may be named as
		 * the first name of the other, which was never handed out */
		links += e->link_first != NULL;
		if (e->kind == SWEEP_ERROR && e->op == SWEEP_OP_OPEN &&
		    strncmp(e->name, "secret", 6) == 0 && e->error == EACCES)
			file_err++;
		if (e->kind == SWEEP_ERROR && e->op == SWEEP_OP_READDIR &&
		    strcmp(e->name, "locked") == 0 && e->error == EACCES)
			dir_err++;
		ok += e->kind == SWEEP_DATA && strcmp(e->name, "open") == 0;
	}
	sweep_close(sw);
	_exit(file_err == 2 && dir_err == 1 && ok == 1 && links == 0 ? 0 : 1);
}

static void unreadable_entries_are_errors(void **state)
{
	const char *root = *state;
	assert_int_equal(chmod(root, 0755), 0);
	int fd = tree_open_dir(AT_FDCWD, root);
	tree_file(fd, "secret", 100, 0);
	assert_int_equal(linkat(fd, "secret", fd, "secret-link", 0), 0);
	tree_file(fd, "open", 100, 0);
	tree_mkdir(fd, "locked");
	int l = tree_open_dir(fd, "locked");
	tree_file(l, "inside", 10, 0);
	close(l);
	assert_int_equal(fchmodat(fd, "secret", 0, 0), 0);
	assert_int_equal(fchmodat(fd, "locked", 0, 0), 0);
	close(fd);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		unreadable_child(root);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("cannot drop root privileges here: unreadable files not tested\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void hard_links_named_once(void **state)
{
	const char *root = *state;
	odd_tree(root);
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, NULL);
	const struct sweep_entry *e;
	int data = 0, links = 0;
	char *first = NULL;
	while ((e = sweep_next(sw))) {
		const char *n = e->name;
		if (strcmp(n, "plain") && strcmp(n, "hard1") && strcmp(n, "hard2"))
			continue;
		if (e->link_first) {
			links++;
			assert_int_equal(e->kind, SWEEP_FILE);
			assert_non_null(first);
			assert_string_equal(e->link_first, first);
		} else {
			data++;
			assert_int_equal(e->kind, SWEEP_DATA);
			first = strdup(e->path);
		}
	}
	sweep_close(sw);
	free(first);
	assert_int_equal(data, 1);
	assert_int_equal(links, 2);
}

/* Fifos and devices come without data: they are never opened. */
static void special_files_never_opened(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	assert_int_equal(mkfifoat(fd, "fifo", 0644), 0);
	int dev = mknodat(fd, "null", S_IFCHR | 0666, makedev(1, 3)) == 0;
	close(fd);
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, NULL);
	const struct sweep_entry *e;
	int specials = 0;
	while ((e = sweep_next(sw)))
		if (e->depth == 1) {
			assert_int_equal(e->kind, SWEEP_FILE);
			assert_int_equal(e->fd, -1);
			specials++;
		}
	sweep_close(sw);
	assert_int_equal(specials, 1 + dev);
	if (!dev)
		print_message("mknod not permitted: devices not tested\n");
}

static int post_seen_before(const struct strlist *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], path) == 0)
			return 1;
	return 0;
}

/* A directory's post-order entry comes once, after everything below it. */
static void postorder_after_contents(void **state)
{
	const char *root = *state;
	odd_tree(root);
	for (size_t i = 0; i < sizeof(all_orders) / sizeof(all_orders[0]); i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = all_orders[i], .flags = SWEEP_POSTORDER,
		                           .dir_order = i % 2 ? SWEEP_DIRS_BLOCK : SWEEP_DIRS_INODE };
		struct sweep *sw = sweep_open(roots, &o);
		const struct sweep_entry *e;
		struct strlist posted = {0};
		int dirs = 0;
		while ((e = sweep_next(sw))) {
			dirs += e->kind == SWEEP_DIR;
			if (e->kind == SWEEP_DIR_POST) {
				assert_false(post_seen_before(&posted, e->path));
				strlist_add(&posted, e->path);
				continue;
			}
			/* no ancestor of this entry may be done already */
			char *p = strdup(e->path);
			for (char *slash; (slash = strrchr(p, '/'));) {
				*slash = 0;
				assert_false(post_seen_before(&posted, p));
			}
			free(p);
		}
		sweep_close(sw);
		assert_int_equal(posted.n, (size_t)dirs);
		strlist_free(&posted);
	}
}

static enum sweep_verdict prune_d(const struct sweep_entry *e, void *arg)
{
	(void)arg;
	return strcmp(e->name, "d") == 0 ? SWEEP_PRUNE : SWEEP_KEEP;
}

static void prune_and_filter_skip_subtrees(void **state)
{
	const char *root = *state;
	odd_tree(root);
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, NULL);
	const struct sweep_entry *e;
	int below = 0, pruned = 0;
	while ((e = sweep_next(sw))) {
		if (e->kind == SWEEP_DIR && strcmp(e->name, "d") == 0) {
			assert_int_equal(sweep_prune(sw), 0);
			pruned++;
		} else if (e->kind != SWEEP_DIR) {
			assert_int_equal(sweep_prune(sw), -1);
		}
		below += e->depth > 1;
	}
	sweep_close(sw);
	assert_int_equal(pruned, 1);
	assert_int_equal(below, 0);

	struct sweep_options o = { .filter = prune_d };
	struct strlist got = {0};
	collect(root, &o, &got, NULL);
	for (size_t i = 0; i < got.n; i++)
		assert_null(strstr(got.v[i], "/d"));
	assert_int_equal(got.n, 1 + 30 + 1); /* root, f00..f29, hard2 */
	strlist_free(&got);
}

static enum sweep_order order_of_walk(const char *root)
{
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, NULL);
	assert_non_null(sweep_next(sw));
	enum sweep_order o = sweep_current_order(sw);
	sweep_close(sw);
	return o;
}

/* The policy table: sorting only where the file system gains from it. */
static void policy_by_file_system(void **state)
{
	const char *root = *state;
	struct statfs s;
	assert_int_equal(statfs(root, &s), 0);
	enum sweep_order want = s.f_type == 0x9123683E ? SWEEP_ORDER_BLOCK
	                      : tree_fs_sorts(root)     ? SWEEP_ORDER_DISK
	                                                : SWEEP_ORDER_NONE;
	assert_int_equal(order_of_walk(root), want);
	assert_int_equal(order_of_walk("/proc/self"), SWEEP_ORDER_NONE);
	if (statfs("/dev/shm", &s) == 0 && s.f_type == 0x01021994)
		assert_int_equal(order_of_walk("/dev/shm"), SWEEP_ORDER_NONE);
	else
		print_message("no tmpfs at /dev/shm: tmpfs policy not tested\n");
}

/* With few descriptors allowed (64 for directories), a walk over 300
 * directories must close and reopen them from their parents, and still hand
 * out every entry once, in every order. Run in a child: the limit is
 * process-wide. */
/* every_order_matches() in a child process limited to fds descriptors */
static void every_order_matches_with_fds(const char *root, rlim_t fds, struct strlist *ref)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { fds, fds };
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			_exit(2);
		every_order_matches(root, SWEEP_FOLLOW_NONE, 0, ref);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* levels of 4 subdirectories, each with files, under dirfd */
static void fan_tree(int dirfd, int levels)
{
	for (int i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", i);
		tree_file(dirfd, name, i * 10, 0);
	}
	for (int i = 0; levels > 0 && i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%d", i);
		tree_mkdir(dirfd, name);
		int d = tree_open_dir(dirfd, name);
		fan_tree(d, levels - 1);
		close(d);
	}
}

/* The helper threads run levels ahead of the walk, which holds each
 * directory's names until they are done with them: whatever the timing and
 * the descriptors left, every entry still comes exactly once. */
static void helpers_ahead_keep_every_entry(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	fan_tree(fd, 5); /* 1,365 directories, 4,095 files */
	close(fd);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	every_order_matches(root, SWEEP_FOLLOW_NONE, 0, &ref);
	every_order_matches(root, SWEEP_FOLLOW_NONE, SWEEP_NOSTAT | SWEEP_NODATA, &ref);
	every_order_matches_with_fds(root, 64, &ref); /* room for a few tasks */
	strlist_free(&ref);
}

/* Counts the regular files a walk hands out, and those with their status. */
static void count_stated_files(const char *root, unsigned flags, int *files, int *stated)
{
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .warm = SWEEP_WARM_ON,
	                           .flags = flags };
	struct sweep *sw = sweep_open(roots, &o);
	assert_non_null(sw);
	const struct sweep_entry *e;
	*files = *stated = 0;
	while ((e = sweep_next(sw))) {
		assert_stat_is_the_paths(e, SWEEP_FOLLOW_NONE);
		if (!S_ISREG(e->st.st_mode))
			continue;
		(*files)++;
		*stated += !(e->flags & SWEEP_E_NOSTAT);
	}
	sweep_close(sw);
}

/* Under SWEEP_NOSTAT, SWEEP_STAT_AHEAD has the helper threads stat every
 * name, and hand over the status they took (checked against lstat); the
 * entries are the same. Without it, they stat no regular file. */
static void stat_ahead_hands_over_statuses(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	fan_tree(fd, 4); /* 341 directories, 1,023 files */
	close(fd);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	every_order_matches(root, SWEEP_FOLLOW_NONE,
	                    SWEEP_NODATA | SWEEP_NOSTAT | SWEEP_STAT_AHEAD, &ref);
	strlist_free(&ref);
	int files, stated;
	count_stated_files(root, SWEEP_NODATA | SWEEP_NOSTAT | SWEEP_STAT_AHEAD, &files, &stated);
	print_message("%d of %d files stat-ed ahead\n", stated, files);
	assert_int_equal(files, 1023);
	assert_true(stated > files / 2);
	count_stated_files(root, SWEEP_NODATA | SWEEP_NOSTAT, &files, &stated);
	assert_int_equal(files, 1023);
	assert_int_equal(stated, 0);
	struct sweep_options bad = { .flags = SWEEP_NODATA | SWEEP_STAT_AHEAD };
	assert_null(sweep_open(NULL, &bad));
}

/* A memory bound too small for any task of the helper threads (a quarter of
 * it is theirs): the walk still gets each task it waits for into their
 * empty queue, and ends, with every entry. Under alarm(): a walk that
 * waits for room forever fails the test instead of hanging it. */
static void tiny_bound_with_helpers_ends(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	fan_tree(fd, 3); /* 85 directories, 255 files */
	close(fd);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	static const enum sweep_order orders[] = { SWEEP_ORDER_INODE, SWEEP_ORDER_NAME };
	for (size_t i = 0; i < 2; i++) {
		struct sweep_options o = { .order = orders[i], .flags = SWEEP_NODATA,
		                           .warm = SWEEP_WARM_ON, .max_bytes = 1 };
		struct strlist got = {0};
		struct sweep_stats s;
		alarm(60);
		collect(root, &o, &got, &s);
		alarm(0);
		assert_true(s.warm_threads > 0);
		strlist_assert_equal(&got, &ref);
		strlist_free(&got);
	}
	strlist_free(&ref);
}

static void small_descriptor_budget_reopens(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < 300; i++) {
		char name[32];
		snprintf(name, sizeof(name), "d%03d", i);
		tree_mkdir(fd, name);
		int d = tree_open_dir(fd, name);
		tree_file(d, "a", 10, 0);
		tree_file(d, "b", 0, 0);
		close(d);
	}
	close(fd);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	every_order_matches_with_fds(root, 128, &ref);
	strlist_free(&ref);
}

/* sysfs's word on the device under path: 1 rotational, 0 not, -1 unknown. */
static int rotational_of(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	for (int up = 0; up < 2; up++) {
		char sys[128];
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/%squeue/rotational",
		         major(st.st_dev), minor(st.st_dev), up ? "../" : "");
		FILE *f = fopen(sys, "r");
		int v;
		if (f && fscanf(f, "%d", &v) == 1) {
			fclose(f);
			return v;
		}
		if (f)
			fclose(f);
	}
	return -1;
}

/* Empty the page cache, dentries and inodes (root only). */
static bool drop_caches(void)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool done = write(fd, "3", 1) == 1;
	close(fd);
	return done;
}

/* By default, on a cold cache, directories are read in block order (a FIEMAP
 * call each) only on a rotational device whose misses are costly; where
 * they are cheap (an SSD, whatever sysfs says), helper threads warm the
 * caches instead. The first directories are read at once: their times tell
 * which case this is. */
static void directory_order_by_device(void **state)
{
	const char *root = *state;
	if (!tree_fs_sorts(root))
		skip();
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < 12; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%d", i);
		tree_mkdir(fd, name);
		int sub = tree_open_dir(fd, name);
		tree_mkdir(sub, "inner");
		close(sub);
	}
	close(fd);
	if (!drop_caches()) {
		print_message("skipped: dropping the caches needs root\n");
		skip();
	}
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .flags = SWEEP_NODATA };
	struct strlist got = {0};
	struct sweep_stats s;
	collect(root, &o, &got, &s);
	strlist_free(&got);
	int rot = rotational_of(root);
	print_message("device rotational: %d; %ju of 25 directories read by block, "
	              "%u helper threads\n", rot, (uintmax_t)s.dirs_by_block, s.warm_threads);
	assert_int_equal(s.fiemap_calls, s.dirs_by_block);
	if (rot == 1)
		assert_true(s.dirs_by_block > 0 || s.warm_threads > 0);
	else
		assert_int_equal(s.dirs_by_block, 0);
}

/* By default, directories that come from the cache are read at once even
 * where block order is the rule: it saves nothing there and costs reopening
 * each one. Asked for, block order holds whatever the cache. */
static void cached_directories_are_read_at_once(void **state)
{
	const char *root = *state;
	enum { NDIRS = 200 };
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < NDIRS; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%03d", i);
		tree_mkdir(fd, name);
	}
	close(fd);
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .flags = SWEEP_NODATA };
	struct strlist got = {0};
	struct sweep_stats s;
	collect(root, &o, &got, &s);
	print_message("by default: %ju of %d directories read by block\n",
	              (uintmax_t)s.dirs_by_block, NDIRS);
	assert_true(s.dirs_by_block < NDIRS / 2);
	strlist_free(&got);
	o.dir_order = SWEEP_DIRS_BLOCK;
	collect(root, &o, &got, &s);
	assert_int_equal(s.dirs_by_block, NDIRS + 1);
	strlist_free(&got);
}

/* The helper threads read directories ahead of the walk, but without
 * touching their atime: the walk reports the atime it would have without
 * them (find -atime, du --time=atime). */
static void helpers_leave_atime_alone(void **state)
{
	const char *root = *state;
	enum { NDIRS = 60 };
	const struct timespec old[2] = { { 978307200, 0 }, { UTIME_OMIT, 0 } };
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < NDIRS; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%02d", i);
		tree_mkdir(fd, name);
		int d = tree_open_dir(fd, name);
		tree_mkdir(d, "inner");
		tree_file(d, "file", 10, 0);
		assert_int_equal(utimensat(d, "inner", old, 0), 0);
		close(d);
		assert_int_equal(utimensat(fd, name, old, 0), 0);
	}
	close(fd);
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .flags = SWEEP_NODATA,
	                           .warm = SWEEP_WARM_ON };
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, &o);
	assert_non_null(sw);
	const struct sweep_entry *e;
	int dirs = 0;
	while ((e = sweep_next(sw))) {
		if (e->kind != SWEEP_DIR || e->depth == 0)
			continue;
		if (e->st.st_atim.tv_sec != old[0].tv_sec)
			fail_msg("%s: atime %jd, not %jd", e->path, (intmax_t)e->st.st_atim.tv_sec,
			         (intmax_t)old[0].tv_sec);
		dirs++;
	}
	sweep_close(sw);
	assert_int_equal(dirs, 2 * NDIRS);
}

/* n empty files f00000... in dirfd */
static void empty_files(int dirfd, int n)
{
	for (int i = 0; i < n; i++) {
		char name[16];
		snprintf(name, sizeof(name), "f%05d", i);
		tree_file(dirfd, name, 0, 0);
	}
}

/* What add_late_file() adds, and where. */
struct late {
	int attempt;
	int added;
};

/* A filter that waits a little on each directory below the root, so that
 * the helper threads are surely done with it, then adds a file to it. */
static enum sweep_verdict add_late_file(const struct sweep_entry *e, void *arg)
{
	struct late *l = arg;
	if (!S_ISDIR(e->st.st_mode) || e->depth != 1)
		return SWEEP_KEEP;
	usleep(20000);
	char *path;
	assert_true(asprintf(&path, "%s/late%d", e->path, l->attempt) > 0);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	free(path);
	l->added++;
	return SWEEP_KEEP;
}

/* Walks root as collect() does, checking the stats of all but the
 * directories that add_late_file() changes after they were stat-ed. */
static void collect_late(const char *root, struct late *l, struct strlist *out,
                         struct sweep_stats *stats)
{
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .flags = SWEEP_NODATA,
	                           .warm = SWEEP_WARM_ON, .filter = add_late_file,
	                           .filter_arg = l };
	const char *roots[] = { root, NULL };
	struct sweep *sw = sweep_open(roots, &o);
	assert_non_null(sw);
	const struct sweep_entry *e;
	while ((e = sweep_next(sw))) {
		if (e->kind != SWEEP_DIR || e->depth != 1)
			assert_stat_is_the_paths(e, o.follow);
		strlist_add(out, e->path);
	}
	sweep_get_stats(sw, stats, sizeof(*stats));
	sweep_close(sw);
}

/* The helper threads read directories and stat names ahead of the walk, and
 * hand both over (the stats are checked against lstat). A directory changed
 * after they read it is read anew: the walk's stat of it may be theirs, so
 * only a fresh one can tell. Tried until a directory was handed over. */
static void helpers_hand_over_names_and_stats(void **state)
{
	const char *root = *state;
	enum { NSUB = 6, NFILES = 1500 };
	int fd = tree_open_dir(AT_FDCWD, root);
	empty_files(fd, NFILES);
	for (int i = 0; i < NSUB; i++) {
		char name[16];
		snprintf(name, sizeof(name), "s%d", i);
		tree_mkdir(fd, name);
		int d = tree_open_dir(fd, name);
		fan_tree(d, 1);
		close(d);
	}
	close(fd);
	struct sweep_stats s = {0};
	for (int attempt = 0; attempt < 20 && !s.dirs_read_ahead; attempt++) {
		struct late l = { attempt, 0 };
		struct strlist got = {0}, ref = {0};
		collect_late(root, &l, &got, &s);
		assert_int_equal(l.added, NSUB);
		tree_reference_walk(root, 0, &ref);
		strlist_assert_equal(&got, &ref);
		strlist_free(&got);
		strlist_free(&ref);
		assert_true(s.names_stated_ahead > 0);
		print_message("attempt %d: %ju names stat-ed, %ju directories read ahead\n",
		              attempt, (uintmax_t)s.names_stated_ahead,
		              (uintmax_t)s.dirs_read_ahead);
	}
	assert_true(s.dirs_read_ahead > 0);
}

/* A directory too big for one task of the helper threads (their tasks keep
 * a stat a name, under a quarter of max_bytes) goes to them in parts, each
 * handed back on its own; in one piece it would be turned away whole. */
static void big_directory_goes_to_helpers_in_parts(void **state)
{
	const char *root = *state;
	enum { NFILES = 20000 };
	int fd = tree_open_dir(AT_FDCWD, root);
	empty_files(fd, NFILES);
	close(fd);
	struct strlist ref = {0}, got = {0};
	tree_reference_walk(root, 0, &ref);
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .flags = SWEEP_NODATA,
	                           .warm = SWEEP_WARM_ON, .max_bytes = 8 << 20 };
	struct sweep_stats s;
	collect(root, &o, &got, &s);
	strlist_assert_equal(&got, &ref);
	print_message("%ju of %d names stat-ed by the helpers\n",
	              (uintmax_t)s.names_stated_ahead, NFILES);
	assert_true(s.names_stated_ahead >= NFILES / 4);
	strlist_free(&got);
	strlist_free(&ref);
}

static void bad_options_refused(void **state)
{
	(void)state;
	struct sweep_options o = { .order = 99 };
	errno = 0;
	assert_null(sweep_open(NULL, &o));
	assert_int_equal(errno, EINVAL);
	struct sweep *sw = sweep_open(NULL, NULL);
	assert_non_null(sw);
	assert_null(sweep_next(sw));
	sweep_close(sw);
}

static void missing_root_is_an_error(void **state)
{
	const char *root = *state;
	char *missing;
	assert_true(asprintf(&missing, "%s/none", root) > 0);
	const char *roots[] = { missing, root, NULL };
	struct sweep *sw = sweep_open(roots, NULL);
	const struct sweep_entry *e = sweep_next(sw);
	assert_int_equal(e->kind, SWEEP_ERROR);
	assert_int_equal(e->op, SWEEP_OP_STAT);
	assert_int_equal(e->error, ENOENT);
	assert_string_equal(e->path, missing);
	e = sweep_next(sw);
	assert_non_null(e);
	assert_string_equal(e->path, root);
	sweep_close(sw);
	free(missing);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, tree_setup, tree_teardown)
	const struct CMUnitTest tests[] = {
		T(every_entry_once),
		T(every_entry_once_following_links),
		T(nostat_keeps_entries_and_types),
		T(symlink_loop_is_an_error_under_L),
		T(deep_paths_work),
		T(metadata_served_in_cscan_order),
		T(data_in_block_order_within_each_flush),
		T(split_file_comes_at_its_last_run),
		T(cached_files_need_no_placement),
		T(roots_together_share_one_sweep),
		T(vanished_file_is_an_error_and_walk_goes_on),
		T(replaced_file_is_handed_out_as_it_is),
		T(unreadable_entries_are_errors),
		T(hard_links_named_once),
		T(special_files_never_opened),
		T(postorder_after_contents),
		T(prune_and_filter_skip_subtrees),
		T(policy_by_file_system),
		T(small_descriptor_budget_reopens),
		T(helpers_ahead_keep_every_entry),
		T(stat_ahead_hands_over_statuses),
		T(tiny_bound_with_helpers_ends),
		T(directory_order_by_device),
		T(cached_directories_are_read_at_once),
		T(helpers_leave_atime_alone),
		T(helpers_hand_over_names_and_stats),
		cmocka_unit_test_setup_teardown(big_directory_goes_to_helpers_in_parts,
		                                tree_setup_fast, tree_teardown),
		T(bad_options_refused),
		T(missing_root_is_an_error),
	};
	/* TEST_FILTER=name* runs only some tests, by hand */
	if (getenv("TEST_FILTER"))
		cmocka_set_test_filter(getenv("TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
