/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.h: building test trees and walking them the plain way, for the
 * cmocka tests. Everything aborts the test (via cmocka) on failure.
 */
#ifndef SWEEP_TESTS_TREE_H
#define SWEEP_TESTS_TREE_H

#include <stddef.h>
#include <sys/types.h>

/* UNDER_ASAN: built with AddressSanitizer (gcc or clang), whose allocator
 * and address space the memory tests cannot use as they would. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A scratch directory on the file system of $TMPDIR (or /tmp). */
char *tree_scratch(void);
/* The same on tmpfs (/dev/shm) when there is one, for big trees whose
 * placement does not matter: making 200,000 files there takes seconds. */
char *tree_scratch_fast(void);
/* cmocka setup: *state is a new tree_scratch() (tree_setup) or
 * tree_scratch_fast() (tree_setup_fast); tree_teardown removes and frees it,
 * also after a failed assertion. */
int tree_setup(void **state);
int tree_setup_fast(void **state);
int tree_teardown(void **state);
/* rm -rf path (also unreadable parts). */
void tree_remove(const char *path);
void tree_mkdir(int dirfd, const char *name);
/* A file of size bytes of a pattern; if synced, its blocks are allocated. */
void tree_file(int dirfd, const char *name, off_t size, int synced);
int tree_open_dir(int dirfd, const char *name);

/* A sorted list of strings. */
struct strlist {
	char **v;
	size_t n, cap;
};
void strlist_add(struct strlist *l, const char *s);
void strlist_sort(struct strlist *l);
void strlist_free(struct strlist *l);
/* Fail the test, showing the first difference, unless a and b are equal. */
void strlist_assert_equal(struct strlist *a, struct strlist *b);

/* Every path under root, the root included, by a plain recursive walk with
 * openat() (so deep paths work); follow: stat through symlinks, and do not
 * descend into a directory that is its own ancestor. */
void tree_reference_walk(const char *root, int follow, struct strlist *out);

/* Where libsweep(3) places an open file in its sweep, by FIEMAP: the start
 * of the run reached last for a file of one link and at most 2 MiB whose data
 * lies in 2 to 8 runs apart on the disk, else its first physical byte; -1 if
 * unplaced. *runs, if runs is not NULL: how many runs (9: more than 8);
 * *first, if first is not NULL: the first physical byte (-1 if unplaced). */
long long tree_sweep_place(int fd, int *runs, long long *first);
/* Whether path is on a file system that FIEMAP places (ext4, xfs, btrfs). */
int tree_fs_sorts(const char *path);

#endif
