/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-walk-helpers.c: libsweep's helper threads, which read directories
 * and stat names ahead of the walk, and its limits: whatever the timing,
 * memory bound and descriptors left, every entry comes once; what they
 * hand over (names, statuses) is what the walk would have found, atimes
 * included; a directory too big for one of their tasks goes in parts;
 * threads that start midway are given the directories read before them.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "walk-check.h"
#include "internal.h" /* to start the helpers midway */

/* fn(arg) in a child process (a limit set there is the child's alone);
 * fails unless it exits 0. */
static void in_child(int (*fn)(const void *arg), const void *arg)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(arg));
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

struct limited_walk {
	const char *root;
	rlim_t fds;
	struct strlist *ref;
};

static int every_order_matches_child(const void *arg)
{
	const struct limited_walk *w = arg;
	struct rlimit rl = { w->fds, w->fds };
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 2;
	walk_every_order_matches(w->root, SWEEP_FOLLOW_NONE, 0, w->ref);
	return 0;
}

/* walk_every_order_matches() in a child process limited to fds descriptors */
static void every_order_matches_with_fds(const char *root, rlim_t fds, struct strlist *ref)
{
	struct limited_walk w = { root, fds, ref };
	in_child(every_order_matches_child, &w);
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

/* A fan_tree() of levels under root, and its reference walk into ref. */
static void fan_with_reference(const char *root, int levels, struct strlist *ref)
{
	int fd = tree_open_dir(AT_FDCWD, root);
	fan_tree(fd, levels);
	close(fd);
	tree_reference_walk(root, 0, ref);
}

/* Makes directory d<i> (two digits) in dirfd; opened. */
static int numbered_dir(int dirfd, int i)
{
	char name[16];
	snprintf(name, sizeof(name), "d%02d", i);
	tree_mkdir(dirfd, name);
	return tree_open_dir(dirfd, name);
}

/* The helper threads run levels ahead of the walk, which holds each
 * directory's names until they are done with them: whatever the timing and
 * the descriptors left, every entry still comes exactly once. */
static void helpers_ahead_keep_every_entry(void **state)
{
	const char *root = *state;
	struct strlist ref = {0};
	fan_with_reference(root, 5, &ref); /* 1,365 directories, 4,095 files */
	walk_every_order_matches(root, SWEEP_FOLLOW_NONE, 0, &ref);
	walk_every_order_matches(root, SWEEP_FOLLOW_NONE, SWEEP_NOSTAT | SWEEP_NODATA, &ref);
	every_order_matches_with_fds(root, 96, &ref); /* room for a few tasks (half the
	                                                  free ones are the walk's) */
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
		walk_assert_stat(e, SWEEP_FOLLOW_NONE);
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
	struct strlist ref = {0};
	fan_with_reference(root, 4, &ref); /* 341 directories, 1,023 files */
	walk_every_order_matches(root, SWEEP_FOLLOW_NONE,
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

/* A memory bound too small for any task of the helper threads (a sixteenth of
 * it is theirs): the walk still gets each task it waits for into their
 * empty queue, and ends, with every entry. Under alarm(): a walk that
 * waits for room forever fails the test instead of hanging it. */
static void tiny_bound_with_helpers_ends(void **state)
{
	const char *root = *state;
	struct strlist ref = {0};
	fan_with_reference(root, 3, &ref); /* 85 directories, 255 files */
	static const enum sweep_order orders[] = { SWEEP_ORDER_INODE, SWEEP_ORDER_NAME };
	for (size_t i = 0; i < 2; i++) {
		struct sweep_options o = { .order = orders[i], .flags = SWEEP_NODATA,
		                           .warm = SWEEP_WARM_ON, .max_bytes = 1 };
		struct strlist got = {0};
		struct sweep_stats s;
		alarm(60);
		walk_collect(root, &o, &got, &s);
		alarm(0);
		assert_true(s.warm_threads > 0);
		strlist_assert_equal(&got, &ref);
		strlist_free(&got);
	}
	strlist_free(&ref);
}

/* With few descriptors allowed (64 for directories), a walk over 300
 * directories must close and reopen them from their parents, and still hand
 * out every entry once, in every order. Run in a child: the limit is
 * process-wide. */
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

/* Descriptors open in the process now. */
static int fds_open_now(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	for (struct dirent *de; (de = readdir(d));)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1; /* d's own */
}

/* In a child limited to LIMIT descriptors: a walk down a chain deeper than
 * half of them keeps no more than half of what was free, and the caller
 * can open the other half at its bottom (libsweep(3) NOTES; the walk took
 * all but four). Exit status 0, 1 (the walk held more) or 2 (the caller
 * could not open its half). */
enum { CHAIN_LIMIT = 256, CHAIN_DEPTH = 200 };
static int half_left_to_caller(const void *arg)
{
	const char *root = arg;
	struct rlimit rl = { CHAIN_LIMIT, CHAIN_LIMIT };
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 3;
	int at_start = fds_open_now(), half = (CHAIN_LIMIT - at_start) / 2, most = 0, r = 0;
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .warm = SWEEP_WARM_OFF,
	                           .flags = SWEEP_NODATA };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	while (sw && (e = sweep_next(sw))) {
		int held = fds_open_now() - at_start;
		most = held > most ? held : most;
		if (e->depth == CHAIN_DEPTH && e->kind == SWEEP_FILE) {
			int fds[CHAIN_LIMIT], got = 0;
			for (; got < half - 1 && (fds[got] = open("/dev/null", O_RDONLY)) >= 0; got++)
				;
			r = got < half - 1 ? 2 : r;
			while (got > 0)
				close(fds[--got]);
		}
	}
	if (sw)
		sweep_close(sw);
	fprintf(stderr, "limit %d, %d open at first: the walk held %d at most\n", CHAIN_LIMIT,
	        at_start, most);
	return !sw ? 4 : most > half ? 1 : r;
}

static void walk_leaves_caller_half_the_descriptors(void **state)
{
	const char *root = *state;
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < CHAIN_DEPTH; i++) {
		tree_mkdir(fd, "d");
		int d = tree_open_dir(fd, "d");
		close(fd);
		fd = d;
	}
	tree_file(fd, "bottom", 0, 0);
	close(fd);
	in_child(half_left_to_caller, root);
}

/* One of several walks at once, each with its own handle. */
struct side_walk {
	pthread_t thread;
	const char *root;
	size_t entries, errors;
};

static void *side_walk_run(void *arg)
{
	struct side_walk *w = arg;
	const char *roots[] = { w->root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_DISK, .warm = SWEEP_WARM_ON };
	struct sweep *sw = sweep_open(roots, &o);
	const struct sweep_entry *e;
	while (sw && (e = sweep_next(sw))) {
		w->errors += e->kind == SWEEP_ERROR;
		w->entries += e->kind != SWEEP_ERROR;
	}
	if (sw)
		sweep_close(sw);
	else
		w->errors++;
	return NULL;
}

/* In a child limited to 256 descriptors, eight walks at once, with their
 * helper threads, over a tree of 1,365 directories: each hands out every
 * entry, none an error (each took what was free when it opened, and lost
 * entries to "Too many open files" when the others held the rest). Exit
 * status 0, or 1. */
enum { SIDE_WALKS = 8 };
struct side_tree {
	const char *root;
	size_t want; /* its entries */
};

static int walks_side_by_side(const void *arg)
{
	const char *root = ((const struct side_tree *)arg)->root;
	size_t want = ((const struct side_tree *)arg)->want;
	struct rlimit rl = { 256, 256 };
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 3;
	struct side_walk w[SIDE_WALKS];
	for (int i = 0; i < SIDE_WALKS; i++) {
		w[i] = (struct side_walk){ .root = root };
		if (pthread_create(&w[i].thread, NULL, side_walk_run, &w[i]) != 0)
			return 4;
	}
	int r = 0;
	for (int i = 0; i < SIDE_WALKS; i++) {
		pthread_join(w[i].thread, NULL);
		fprintf(stderr, "walk %d: %zu entries (of %zu), %zu errors\n", i, w[i].entries, want,
		        w[i].errors);
		r |= w[i].errors || w[i].entries != want;
	}
	return r;
}

static void walks_side_by_side_lose_nothing(void **state)
{
	const char *root = *state;
	struct strlist ref = {0};
	fan_with_reference(root, 5, &ref); /* 1,365 directories, 4,095 files */
	struct side_tree t = { root, ref.n };
	strlist_free(&ref);
	in_child(walks_side_by_side, &t);
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
		int d = numbered_dir(fd, i);
		tree_mkdir(d, "inner");
		tree_file(d, "file", 10, 0);
		assert_int_equal(utimensat(d, "inner", old, 0), 0);
		assert_int_equal(futimens(d, old), 0);
		close(d);
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

/* Walks root as walk_collect() does, checking the stats of all but the
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
			walk_assert_stat(e, o.follow);
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
 * a stat a name, under a sixteenth of max_bytes) goes to them in parts, each
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
	                           .warm = SWEEP_WARM_ON, .max_bytes = 32 << 20 };
	struct sweep_stats s;
	walk_collect(root, &o, &got, &s);
	strlist_assert_equal(&got, &ref);
	print_message("%ju of %d names stat-ed by the helpers\n",
	              (uintmax_t)s.names_stated_ahead, NFILES);
	assert_true(s.names_stated_ahead >= NFILES / 4);
	strlist_free(&got);
	strlist_free(&ref);
}

/* Threads that start midway (as when the first misses tell the device
 * cheap) get the directories the walk read before them as tasks (the root
 * here, whose subdirectories were queued while there were no threads), to
 * warm the caches: nothing of them is stashed (the walk may have read
 * those subdirectories already; test-pool checks that), and every entry
 * still comes once. */
static void helpers_started_midway_read_queued_dirs(void **state)
{
	const char *root = *state;
	enum { NDIRS = 16, NFILES = 30 };
	int fd = tree_open_dir(AT_FDCWD, root);
	for (int i = 0; i < NDIRS; i++) {
		int d = numbered_dir(fd, i);
		empty_files(d, NFILES);
		close(d);
	}
	close(fd);
	const char *roots[] = { root, NULL };
	struct sweep_options o = { .order = SWEEP_ORDER_INODE, .flags = SWEEP_NODATA,
	                           .warm = SWEEP_WARM_OFF };
	struct sweep *sw = sweep_open(roots, &o);
	assert_non_null(sw);
	int dirs = 0, entries = 0;
	for (const struct sweep_entry *e; (e = sweep_next(sw));) {
		entries++;
		if (e->kind != SWEEP_DIR || e->depth != 1)
			continue;
		if (++dirs == 1) {
			sw->opt.warm = SWEEP_WARM_ON; /* the root was read without them */
		} else if (dirs == 2) {
			usleep(300000); /* the first was read: they had time since */
		}
	}
	struct sweep_stats s;
	sweep_get_stats(sw, &s, sizeof(s));
	sweep_close(sw);
	assert_int_equal(entries, 1 + NDIRS * (1 + NFILES) + 0);
	print_message("%u threads, %ju directories caught up, %ju read ahead\n",
	              s.warm_threads, (uintmax_t)s.dirs_caught_up, (uintmax_t)s.dirs_read_ahead);
	assert_true(s.warm_threads > 0);
	assert_int_equal(s.dirs_caught_up, 1);
	assert_int_equal(s.dirs_read_ahead, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		WALK_TEST(small_descriptor_budget_reopens),
		WALK_TEST(walk_leaves_caller_half_the_descriptors),
		WALK_TEST(walks_side_by_side_lose_nothing),
		WALK_TEST(helpers_ahead_keep_every_entry),
		WALK_TEST(stat_ahead_hands_over_statuses),
		WALK_TEST(tiny_bound_with_helpers_ends),
		WALK_TEST(helpers_leave_atime_alone),
		WALK_TEST(helpers_hand_over_names_and_stats),
		WALK_TEST(helpers_started_midway_read_queued_dirs),
		cmocka_unit_test_setup_teardown(big_directory_goes_to_helpers_in_parts,
		                                tree_setup_fast, tree_teardown),
	};
	return walk_run_tests(tests);
}
