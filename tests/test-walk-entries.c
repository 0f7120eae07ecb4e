/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-walk-entries.c: libsweep hands out every entry once, whatever the
 * tree holds: odd names, hard and symbolic links, fifos and devices, paths
 * past PATH_MAX; with and without stat, in post-order, and pruned; and
 * numbers its directories densely.
 *
 * Each test builds a tree in a scratch directory, walks it, and checks one
 * property against a plain recursive walk or the file system's own answers
 * (walk-check.c).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include "walk-check.h"

static void every_entry_once(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	walk_every_order_matches(root, SWEEP_FOLLOW_NONE, 0, &ref);
	walk_every_order_matches(root, SWEEP_FOLLOW_NONE, SWEEP_NODATA, &ref);
	strlist_free(&ref);
}

static void every_entry_once_following_links(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
	struct strlist ref = {0};
	tree_reference_walk(root, 1, &ref);
	walk_every_order_matches(root, SWEEP_FOLLOW_ALL, 0, &ref);
	strlist_free(&ref);
}

/* Without stat, the set of entries is the same and the type each one carries
 * (from the directory) is the type lstat gives; directories are still stat-ed. */
static void nostat_keeps_entries_and_types(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
	struct strlist ref = {0};
	tree_reference_walk(root, 0, &ref);
	for (size_t i = 0; i < WALK_NORDERS; i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = walk_all_orders[i],
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
	for (size_t i = 0; i < WALK_NORDERS; i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = walk_all_orders[i] };
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

static void hard_links_named_once(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
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

/* A directory's post-order entry comes once, after everything below it;
 * only a root's first entry has SWEEP_E_ROOT. */
static void postorder_after_contents(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
	for (size_t i = 0; i < WALK_NORDERS; i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = walk_all_orders[i], .flags = SWEEP_POSTORDER,
		                           .dir_order = i % 2 ? SWEEP_DIRS_BLOCK : SWEEP_DIRS_INODE };
		struct sweep *sw = sweep_open(roots, &o);
		const struct sweep_entry *e;
		struct strlist posted = {0};
		int dirs = 0;
		while ((e = sweep_next(sw))) {
			dirs += e->kind == SWEEP_DIR;
			/* a root's first entry says so, its post-order entry not
			 * (callers count roots by the flag: libsweep(3)) */
			if (e->kind == SWEEP_DIR)
				assert_int_equal(!!(e->flags & SWEEP_E_ROOT), e->depth == 0);
			if (e->kind == SWEEP_DIR_POST)
				assert_int_equal(e->flags & SWEEP_E_ROOT, 0);
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

/* Directory ids count up from 1, one a directory, so that a caller can map
 * them with an array (sweep-du does); every entry's parent_id is one of
 * them, handed out before it, and a directory's post-order entry has its
 * id. */
static void dir_ids_count_up_from_one(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
	for (size_t i = 0; i < WALK_NORDERS; i++) {
		const char *roots[] = { root, NULL };
		struct sweep_options o = { .order = walk_all_orders[i], .flags = SWEEP_POSTORDER };
		struct sweep *sw = sweep_open(roots, &o);
		const struct sweep_entry *e;
		enum { MAX_DIRS = 1024 };
		unsigned char seen[MAX_DIRS + 1] = { 0 }; /* 1: handed out, 2: and done */
		uint64_t dirs = 0, most = 0;
		while ((e = sweep_next(sw))) {
			if (e->depth > 0) {
				assert_true(e->parent_id >= 1 && e->parent_id <= MAX_DIRS);
				assert_int_equal(seen[e->parent_id], 1);
			}
			if (e->kind == SWEEP_DIR_POST) {
				assert_int_equal(seen[e->dir_id], 1);
				seen[e->dir_id] = 2;
			} else if (e->kind == SWEEP_DIR) {
				assert_true(e->dir_id >= 1 && e->dir_id <= MAX_DIRS);
				assert_int_equal(seen[e->dir_id], 0);
				seen[e->dir_id] = 1;
				dirs++;
				most = e->dir_id > most ? e->dir_id : most;
			}
		}
		sweep_close(sw);
		assert_true(dirs >= 3); /* the root, d and d/emptydir */
		assert_int_equal(most, dirs);
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
	walk_odd_tree(root);
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
	walk_collect(root, &o, &got, NULL);
	for (size_t i = 0; i < got.n; i++)
		assert_null(strstr(got.v[i], "/d"));
	assert_int_equal(got.n, 1 + 30 + 1); /* root, f00..f29, hard2 */
	strlist_free(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		WALK_TEST(every_entry_once),
		WALK_TEST(every_entry_once_following_links),
		WALK_TEST(nostat_keeps_entries_and_types),
		WALK_TEST(deep_paths_work),
		WALK_TEST(hard_links_named_once),
		WALK_TEST(special_files_never_opened),
		WALK_TEST(postorder_after_contents),
		WALK_TEST(dir_ids_count_up_from_one),
		WALK_TEST(prune_and_filter_skip_subtrees),
	};
	return walk_run_tests(tests);
}
