/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-walk-errors.c: what goes wrong during a walk comes as an error
 * entry with its path and errno, and the walk goes on: a symbolic link
 * loop, a file deleted or replaced under the walk, unreadable files and
 * directories, a missing root; bad options are refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "walk-check.h"

static void symlink_loop_is_an_error_under_L(void **state)
{
	const char *root = *state;
	walk_odd_tree(root);
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
	const struct CMUnitTest tests[] = {
		WALK_TEST(symlink_loop_is_an_error_under_L),
		WALK_TEST(vanished_file_is_an_error_and_walk_goes_on),
		WALK_TEST(replaced_file_is_handed_out_as_it_is),
		WALK_TEST(unreadable_entries_are_errors),
		WALK_TEST(bad_options_refused),
		WALK_TEST(missing_root_is_an_error),
	};
	return walk_run_tests(tests);
}
