/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-walk-data.c: the order in which libsweep hands out file data: by
 * physical block within each flush, as the test's own FIEMAP calls see it
 * (tree_sweep_place); a split file at its last run; cached files without
 * a FIEMAP call; several roots in one sweep. Skipped where FIEMAP places
 * nothing (not ext4, xfs or btrfs).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "walk-check.h"

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

/* A small file whose appended tail lies past its neighbours on the disk comes
 * after them, at its tail, and whole: its head was read as the sweep passed.
 * Sorted by its first byte it would come first (the check can fail). */
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
	char name[16];
	void *held[20];
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		tree_file(fd, name, 5000, 1);
		/* mapped and touched, the pages stay cached through the walk: a
		 * proactive reclaim (DAMON's pageout, on the CI machines) may
		 * evict a page just read, but takes no mapped one */
		int f = openat(fd, name, O_RDONLY);
		held[i] = mmap(NULL, 5000, PROT_READ, MAP_SHARED, f, 0);
		assert_true(held[i] != MAP_FAILED);
		(void)mlock(held[i], 5000); /* where allowed: unevictable too */
		assert_int_equal(((volatile char *)held[i])[0], 'a' + 5000 % 26);
		close(f);
	}
	int unplaced;
	assert_int_equal(fiemap_calls_of_walk(root, &unplaced), 0);
	assert_int_equal(unplaced, 20);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(munmap(held[i], 5000), 0); /* else not dropped */
		snprintf(name, sizeof(name), "f%02d", i);
		int f = openat(fd, name, O_RDONLY);
		assert_int_equal(posix_fadvise(f, 0, 0, POSIX_FADV_DONTNEED), 0);
		close(f);
	}
	close(fd);
	assert_int_equal(fiemap_calls_of_walk(root, &unplaced), 20);
	assert_int_equal(unplaced, 0);
}

/* Under SWEEP_EMPTY_UNOPENED an empty regular file comes as SWEEP_DATA
 * with fd -1 (and a second name of an empty one as a link), the others
 * opened; without the flag every one is opened. Whatever the file system
 * (the data phase or not). */
static void empty_files_unopened_when_asked(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	char name[16];
	for (int i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		tree_file(fd, name, i % 2 ? 3000 : 0, 0);
	}
	assert_int_equal(linkat(fd, "f00", fd, "link-to-f00", 0), 0);
	close(fd);
	for (int pass = 0; pass < 2; pass++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = SWEEP_ORDER_DISK,
		                           .flags = pass ? SWEEP_EMPTY_UNOPENED : 0 };
		struct sweep *sw = sweep_open(roots, &o);
		assert_non_null(sw);
		int unopened = 0, opened = 0, links = 0;
		for (const struct sweep_entry *e; (e = sweep_next(sw));) {
			assert_int_not_equal(e->kind, SWEEP_ERROR);
			if (e->kind == SWEEP_FILE && e->link_first)
				links++;
			if (e->kind != SWEEP_DATA)
				continue;
			if (e->fd < 0) {
				assert_true(pass == 1 && e->st.st_size == 0);
				unopened++;
			} else {
				opened++;
			}
		}
		sweep_close(sw);
		assert_int_equal(links, 1);
		assert_int_equal(unopened, pass ? 5 : 0);
		assert_int_equal(opened, pass ? 5 : 10);
	}
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		WALK_TEST(data_in_block_order_within_each_flush),
		WALK_TEST(split_file_comes_at_its_last_run),
		WALK_TEST(cached_files_need_no_placement),
		WALK_TEST(roots_together_share_one_sweep),
		WALK_TEST(empty_files_unopened_when_asked),
	};
	return walk_run_tests(tests);
}
