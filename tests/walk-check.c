/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk-check.c: the checked walks and the odd tree of walk-check.h, which
 * the test-walk-*.c programs share. Each property is checked against
 * something computed without the library: a plain recursive walk
 * (tree.c) or the file system's own answers.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "walk-check.h"

const enum sweep_order walk_all_orders[WALK_NORDERS] = {
	SWEEP_ORDER_AUTO, SWEEP_ORDER_DISK, SWEEP_ORDER_INODE,
	SWEEP_ORDER_NAME, SWEEP_ORDER_NONE, SWEEP_ORDER_BLOCK,
};

/* Checks e's stat against the file system's own answer for its path, as
 * lstat, or stat where links are followed (a dangling link: the link).
 * Whoever took it (the walk, or a helper thread ahead of it), it must be the
 * same; atime aside, which reading data moves. */
void walk_assert_stat(const struct sweep_entry *e, enum sweep_follow follow)
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
void walk_collect(const char *root, const struct sweep_options *o, struct strlist *out,
                  struct sweep_stats *stats)
{
	const char *roots[] = { root, NULL };
	/* a file just written can read another block count for a moment while
	 * ext4 writes it back (once, in a CI rehearsal: the walk's stat 8, the
	 * check's lstat 0 a moment later); the tree is written back first */
	sync();
	struct sweep *sw = sweep_open(roots, o);
	assert_non_null(sw);
	const struct sweep_entry *e;
	while ((e = sweep_next(sw))) {
		assert_int_equal(strlen(e->path), e->pathlen);
		walk_assert_stat(e, o->follow);
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
 * helper threads that warm the caches (and in block order with directory
 * reads in flight), following links as told and with flags, and check that
 * it hands out exactly the paths of ref. */
void walk_every_order_matches(const char *root, enum sweep_follow follow,
                              unsigned flags, struct strlist *ref)
{
	static const enum sweep_warm warms[] = { SWEEP_WARM_AUTO, SWEEP_WARM_ON };
	for (size_t i = 0; i < WALK_NORDERS; i++)
		for (int dirs = SWEEP_DIRS_AUTO; dirs <= SWEEP_DIRS_BLOCK; dirs++)
			for (size_t w = 0; w < sizeof(warms) / sizeof(warms[0]); w++) {
				struct sweep_options o = {
					.order = walk_all_orders[i], .follow = follow, .flags = flags,
					.dir_order = (enum sweep_dir_order)dirs, .warm = warms[w],
				};
				struct strlist got = {0};
				struct sweep_stats s;
				walk_collect(root, &o, &got, &s);
				strlist_assert_equal(&got, ref);
				strlist_free(&got);
				if (warms[w] == SWEEP_WARM_ON)
					assert_true(s.warm_threads > 0);
				/* and with directory reads in flight (SWEEP_DEPTH_ON) */
				if (dirs != SWEEP_DIRS_BLOCK || warms[w] == SWEEP_WARM_ON)
					continue;
				o.flags |= SWEEP_DEPTH_ON;
				walk_collect(root, &o, &got, &s);
				strlist_assert_equal(&got, ref);
				strlist_free(&got);
			}
}

/* A tree with the awkward cases: odd names, fifo, sparse file, hard links,
 * symbolic links (one dangling, one looping), empty files and directories. */
void walk_odd_tree(const char *root)
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

void walk_test_filter(void)
{
	if (getenv("TEST_FILTER"))
		cmocka_set_test_filter(getenv("TEST_FILTER"));
}
