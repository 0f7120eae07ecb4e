/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-pool.c: the helper threads' pool on its own, without a walk.
 *
 * A task with a ticket comes back done with every name stat-ed as lstat(2)
 * sees it; a subdirectory the threads meet and cannot queue is listed into
 * the stash, where claiming it gives its names once, and is not kept
 * where the walk claimed the directory before (it read it itself); a task dropped or
 * empty still marks its ticket done (the walk may wait on it); stopping the
 * pool finishes whatever was queued; shedding empties the stash. A task
 * given without its names has them read by the thread that runs it, as
 * have the subdirectories it meets; one with more names than a task holds
 * is not run; nothing of a catch-up's task (no_stash) is kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "warm.h"

#define FILES 50

struct fixture {
	char dir[64];
	int fd;
	struct stat st;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test-pool.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	char path[128];
	for (int i = 0; i < FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", f->dir, i);
		int fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0 || ftruncate(fd, i) < 0)
			return -1;
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/sub", f->dir);
	if (mkdir(path, 0755) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/sub/inner", f->dir);
	if (mkdir(path, 0755) < 0)
		return -1;
	f->fd = open(f->dir, O_RDONLY | O_DIRECTORY);
	if (f->fd < 0 || fstat(f->fd, &f->st) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];
	close(f->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	int r = system(cmd);
	free(f);
	return r == 0 ? 0 : -1;
}

/* A task of every name of f's directory (levels: of subdirectories to take
 * ahead), with a ticket; *k gets a reference of the caller's on it. */
static struct warm_task *task_of(const struct fixture *f, int levels, struct warm_ticket **k)
{
	int fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
	assert_true(fd >= 0);
	struct warm_task *t = sw_task_new(fd, &f->st, geteuid(), true, true, levels);
	assert_non_null(t);
	assert_true(sw_task_add_ticket(t));
	*k = sw_warm_ticket_get(sw_warm_task_ticket(t));
	DIR *d = fdopendir(dup(f->fd));
	assert_non_null(d);
	rewinddir(d); /* the offset is shared with f->fd's */
	for (struct dirent *de; (de = readdir(d));)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			assert_true(sw_warm_task_add(t, de->d_ino, de->d_type, de->d_name,
			                             strlen(de->d_name)));
	closedir(d);
	return t;
}

/* Every name of done task t is stat-ed as lstat(2) has it. */
static void check_stated(const struct fixture *f, const struct warm_task *t)
{
	size_t n = sw_warm_task_len(t);
	assert_int_equal(n, FILES + 1);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		ino_t ino;
		unsigned char type;
		const struct stat *st;
		const char *name = sw_warm_task_name(t, i, &len, &ino, &type, &st);
		assert_int_equal(strlen(name), len);
		assert_non_null(st);
		struct stat want;
		assert_int_equal(fstatat(f->fd, name, &want, AT_SYMLINK_NOFOLLOW), 0);
		assert_int_equal(st->st_ino, want.st_ino);
		assert_int_equal(st->st_size, want.st_size);
		assert_int_equal(st->st_mode, want.st_mode);
	}
	assert_true(sw_warm_task_stated(t));
}

static void ticket_comes_back_stated(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 64, SIZE_MAX);
	assert_non_null(p);
	assert_true(sw_pool_ours(p));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) { /* the threads are not a child's: nor are theirs to
	                   stop (alarm: a hang fails) */
		alarm(5);
		bool ours = sw_pool_ours(p);
		sw_pool_stop(p);
		_exit(ours ? 1 : 0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(sw_pool_threads(p) >= 1);
	struct warm_ticket *k;
	struct warm_task *t = task_of(f, 0, &k);
	assert_true(sw_pool_submit(p, t));
	sw_pool_wait(p, k);
	assert_true(sw_warm_ticket_done(k));
	check_stated(f, sw_warm_ticket_task(k));
	sw_warm_ticket_put(k); /* and the task with it */
	sw_pool_stop(p);
}

/* One thread and a queue of one: the subdirectory finds no room as a task
 * of its own, and is listed into the stash before the task is done. */
static void subdirectory_listed_into_stash(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 5, SIZE_MAX);
	assert_non_null(p);
	assert_int_equal(sw_pool_threads(p), 1);
	struct warm_ticket *k;
	struct warm_task *t = task_of(f, 1, &k);
	assert_true(sw_pool_submit(p, t));
	sw_pool_wait(p, k);
	sw_warm_ticket_put(k);
	struct stat sub;
	assert_int_equal(fstatat(f->fd, "sub", &sub, 0), 0);
	struct warm_task *s = sw_pool_claim(p, sub.st_dev, sub.st_ino);
	assert_non_null(s);
	assert_int_equal(sw_warm_task_len(s), 1);
	size_t len;
	ino_t ino;
	unsigned char type;
	const struct stat *st;
	assert_string_equal(sw_warm_task_name(s, 0, &len, &ino, &type, &st), "inner");
	assert_false(sw_warm_task_stated(s)); /* a listing: the walk stats it */
	sw_task_free(s);
	assert_null(sw_pool_claim(p, sub.st_dev, sub.st_ino)); /* claimed once */
	sw_pool_stop(p);
}

/* The walk came to sub before the thread listed it, and read it itself:
 * the listing made after it would wait in the stash for nothing, and
 * leftovers like it filled the stash of a walk of a million entries. */
static void directory_claimed_before_not_stashed(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 5, SIZE_MAX);
	assert_non_null(p);
	struct stat sub;
	assert_int_equal(fstatat(f->fd, "sub", &sub, 0), 0);
	assert_null(sw_pool_claim(p, sub.st_dev, sub.st_ino));
	struct warm_ticket *k;
	assert_true(sw_pool_submit(p, task_of(f, 1, &k)));
	sw_pool_wait(p, k);
	sw_warm_ticket_put(k);
	assert_null(sw_pool_claim(p, sub.st_dev, sub.st_ino)); /* nothing was kept */
	assert_false(sw_pool_shed(p));
	sw_pool_stop(p);
}

static void dropped_tickets_are_done(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 64, SIZE_MAX);
	assert_non_null(p);
	struct warm_ticket *k;
	struct warm_task *t = task_of(f, 0, &k);
	sw_warm_task_drop(t);
	assert_true(sw_warm_ticket_done(k));
	assert_int_equal(sw_warm_task_len(sw_warm_ticket_task(k)), FILES + 1);
	sw_warm_ticket_put(k);
	/* an empty task is not queued, and its ticket is done at once */
	int fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
	t = sw_task_new(fd, &f->st, geteuid(), true, true, 0);
	assert_non_null(t);
	assert_true(sw_task_add_ticket(t));
	k = sw_warm_ticket_get(sw_warm_task_ticket(t));
	assert_false(sw_pool_submit(p, t));
	assert_true(sw_warm_ticket_done(k));
	sw_warm_ticket_put(k);
	sw_pool_stop(p);
}

static void stop_finishes_the_queue(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 64, SIZE_MAX);
	assert_non_null(p);
	struct warm_ticket *k[4];
	for (size_t i = 0; i < 4; i++)
		assert_true(sw_pool_submit(p, task_of(f, 2, &k[i])));
	sw_pool_stop(p);
	for (size_t i = 0; i < 4; i++) {
		assert_true(sw_warm_ticket_done(k[i]));
		sw_warm_ticket_put(k[i]);
	}
}

static void shed_empties_the_stash(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 5, SIZE_MAX);
	assert_non_null(p);
	struct warm_ticket *k;
	assert_true(sw_pool_submit(p, task_of(f, 1, &k)));
	sw_pool_wait(p, k);
	sw_warm_ticket_put(k);
	assert_true(sw_pool_shed(p));  /* the listing of sub went */
	assert_false(sw_pool_shed(p)); /* nothing left to give */
	struct stat sub;
	assert_int_equal(fstatat(f->fd, "sub", &sub, 0), 0);
	assert_null(sw_pool_claim(p, sub.st_dev, sub.st_ino));
	sw_pool_stop(p);
}

/* A task of f's directory given without its names (unread), with a ticket
 * to wait on; *k gets a reference of the caller's on it. */
static struct warm_task *unread_task_of(int dirfd, const struct stat *st, int levels,
                                        struct warm_ticket **k)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	struct warm_task *t = sw_task_new(fd, st, geteuid(), true, true, levels);
	assert_non_null(t);
	t->unread = true;
	assert_true(sw_task_add_ticket(t));
	*k = sw_warm_ticket_get(sw_warm_task_ticket(t));
	return t;
}

/* The thread reads the names itself and stats them; of the two
 * subdirectories it meets, the first goes to the queue
 * unread too (its names for another thread to read), the last is read on
 * the spot: each is run, all its names stat-ed (the bitmap says so). */
static void unread_task_read_by_its_thread(void **state)
{
	struct fixture *f = *state;
	struct sw_pool *p = sw_pool_start(1u << 20, 64, SIZE_MAX);
	assert_non_null(p);
	char path[128];
	snprintf(path, sizeof(path), "%s/sub2", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	struct warm_ticket *k;
	assert_true(sw_pool_submit(p, unread_task_of(f->fd, &f->st, 1, &k)));
	sw_pool_wait(p, k);
	assert_int_equal(sw_warm_task_len(sw_warm_ticket_task(k)), FILES + 2);
	assert_true(sw_warm_task_stated(sw_warm_ticket_task(k)));
	sw_warm_ticket_put(k);
	struct stat sub, sub2;
	assert_int_equal(fstatat(f->fd, "sub", &sub, 0), 0);
	assert_int_equal(fstatat(f->fd, "sub2", &sub2, 0), 0);
	int i;
	for (i = 0; i < 5000 && !(sw_pool_stated(p, sub.st_dev, sub.st_ino) &&
	                          sw_pool_stated(p, sub2.st_dev, sub2.st_ino)); i++)
		usleep(1000); /* run by the threads meanwhile */
	assert_true(i < 5000);
	sw_pool_stop(p);
}

/* A task of a catch-up (no_stash): its subdirectories are run as tasks,
 * their names stat-ed, but kept nowhere: the walk may have read them. */
static void no_stash_task_keeps_nothing(void **state)
{
	struct fixture *f = *state;
	char path[128];
	snprintf(path, sizeof(path), "%s/sub2", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (int keep = 0; keep < 2; keep++) {
		struct sw_pool *p = sw_pool_start(1u << 20, 64, SIZE_MAX);
		assert_non_null(p);
		struct warm_ticket *k;
		struct warm_task *t = unread_task_of(f->fd, &f->st, 1, &k);
		t->no_stash = !keep;
		assert_true(sw_pool_submit(p, t));
		sw_pool_wait(p, k);
		sw_warm_ticket_put(k);
		struct stat sub[2];
		assert_int_equal(fstatat(f->fd, "sub", &sub[0], 0), 0);
		assert_int_equal(fstatat(f->fd, "sub2", &sub[1], 0), 0);
		int i;
		for (i = 0; i < 5000 && !(sw_pool_stated(p, sub[0].st_dev, sub[0].st_ino) &&
		                          sw_pool_stated(p, sub[1].st_dev, sub[1].st_ino)); i++)
			usleep(1000);
		assert_true(i < 5000); /* marked once handed on: stashed, or not */
		for (int j = 0; j < 2; j++) {
			struct warm_task *s = sw_pool_claim(p, sub[j].st_dev, sub[j].st_ino);
			assert_true(keep ? s != NULL : s == NULL);
			if (s)
				sw_task_free(s);
		}
		sw_pool_stop(p);
	}
}

/* More names than a task holds: the thread reads them through and does
 * not run the task (a part of a directory is no listing of it). */
static void unread_task_too_big_not_run(void **state)
{
	struct fixture *f = *state;
	char path[128];
	snprintf(path, sizeof(path), "%s/sub/inner", f->dir);
	for (int i = 0; i <= WARM_CHUNK; i++) {
		char name[160];
		snprintf(name, sizeof(name), "%s/n%d", path, i);
		int fd = open(name, O_CREAT | O_WRONLY, 0644);
		assert_true(fd >= 0);
		close(fd);
	}
	int dfd = open(path, O_RDONLY | O_DIRECTORY);
	struct stat st;
	assert_true(dfd >= 0 && fstat(dfd, &st) == 0);
	struct sw_pool *p = sw_pool_start(1u << 20, 64, SIZE_MAX);
	assert_non_null(p);
	struct warm_ticket *k;
	assert_true(sw_pool_submit(p, unread_task_of(dfd, &st, 0, &k)));
	sw_pool_wait(p, k);
	assert_false(sw_warm_task_stated(sw_warm_ticket_task(k)));
	sw_warm_ticket_put(k);
	sw_pool_stop(p);
	close(dfd);
}

static void too_few_descriptors_no_pool(void **state)
{
	(void)state;
	assert_null(sw_pool_start(1u << 20, 4, SIZE_MAX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ticket_comes_back_stated, setup, teardown),
		cmocka_unit_test_setup_teardown(subdirectory_listed_into_stash, setup, teardown),
		cmocka_unit_test_setup_teardown(directory_claimed_before_not_stashed, setup, teardown),
		cmocka_unit_test_setup_teardown(dropped_tickets_are_done, setup, teardown),
		cmocka_unit_test_setup_teardown(stop_finishes_the_queue, setup, teardown),
		cmocka_unit_test_setup_teardown(shed_empties_the_stash, setup, teardown),
		cmocka_unit_test_setup_teardown(unread_task_read_by_its_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(unread_task_too_big_not_run, setup, teardown),
		cmocka_unit_test_setup_teardown(no_stash_task_keeps_nothing, setup, teardown),
		cmocka_unit_test(too_few_descriptors_no_pool),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
