/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * delete.c: --delete, as GNU tar does it: the members the names select (as
 * -t selects them) are taken out of the archive file in place; those after
 * the first one taken out move up, byte for byte, the end-of-archive blocks
 * follow to a whole record, and the file is cut there. GNU tar starts
 * writing sooner, at the first extended header (choose() says why), and
 * then drops the global headers; with neither, nothing is written. From
 * standard input ("-f -") the archive goes to standard output the same way,
 * and when nothing is written the records read before the end's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "output.h"
#include "update.h"

enum { BLOCK = 512, CHUNK = 1 << 16 };

/* Copy the bytes [from, to) of in to out (at *at, or where out is when
 * *at is -1). Returns 0, or -1 with errno set (*read says which side). */
static int copy_range(int in, int64_t from, int64_t to, int out, int64_t *at, bool *read)
{
	static char buf[CHUNK];
	while (from < to) {
		size_t want = to - from < CHUNK ? (size_t)(to - from) : CHUNK;
		ssize_t n = pread(in, buf, want, from);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			*read = true;
			return -1;
		}
		if (fd_write_all(out, buf, (size_t)n, at) < 0) {
			*read = false;
			return -1;
		}
		from += n;
	}
	return 0;
}

/* Zeros from end to a whole record with room for two blocks: GNU tar's end
 * of archive after a deletion. Returns where the archive ends, or -1. */
static int64_t write_end(struct tar *t, int out, int64_t end, int64_t *at)
{
	static const char zeros[CHUNK];
	int64_t rec = (int64_t)t->opt.record_size;
	int64_t last = (end + 2 * BLOCK + rec - 1) / rec * rec;
	for (int64_t left = last - end; left > 0;) {
		size_t k = left < CHUNK ? (size_t)left : CHUNK;
		if (fd_write_all(out, zeros, k, at) < 0)
			return -1;
		left -= (int64_t)k;
	}
	return last;
}

/* Standard input into a temporary file, so that it can be scanned and
 * then read again. Returns its descriptor, or -1 (fatal, reported). */
static int spool_stdin(struct tar *t)
{
	FILE *f = tmpfile();
	if (!f) {
		tar_fatal(t, errno, "cannot make a temporary file");
		return -1;
	}
	int fd = dup(fileno(f));
	fclose(f);
	if (fd < 0) {
		tar_fatal(t, errno, "cannot make a temporary file");
		return -1;
	}
	static char buf[CHUNK];
	int64_t at = -1;
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tar_fatal(t, errno, "-: Read error");
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		if (fd_write_all(fd, buf, (size_t)n, &at) < 0) {
			tar_fatal(t, errno, "cannot write a temporary file");
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Which members go: GNU tar matches the names as stored (a label's too).
 * *first is where GNU tar starts writing: at the first member to go, or
 * sooner at the first extended header (L, K, x, g), whose member it reads
 * whole before it matches the name; global headers go from there on. */
static bool *choose(struct tar *t, const struct scan *s, size_t *first)
{
	bool *gone = calloc(s->n ? s->n : 1, sizeof(*gone));
	if (!gone) {
		tar_fatal(t, ENOMEM, "memory exhausted");
		return NULL;
	}
	*first = s->n;
	/* -V: GNU tar has read a global header at the start for the label */
	size_t from = t->opt.label && s->n && s->v[0].kind == SCAN_GLOBAL && s->v[0].start == 0;
	for (size_t i = from; i < s->n; i++) {
		const struct scan_member *m = &s->v[i];
		gone[i] = m->kind == SCAN_GLOBAL ||
		          (names_any(&t->opt.names) && members_select(t, m->name));
		if ((gone[i] || m->extended) && *first == s->n)
			*first = i;
	}
	return gone;
}

/* Move the members kept from first on (in place, or to standard output
 * after what came before them) and end the archive. */
static void rewrite(struct tar *t, int fd, const struct scan *s, const bool *gone, size_t first,
                    bool filter)
{
	int out = filter ? STDOUT_FILENO : fd;
	int64_t at = filter ? -1 : s->v[first].start;
	int64_t end = s->v[first].start;
	bool read = false;
	int rc = filter ? copy_range(fd, 0, end, out, &at, &read) : 0;
	for (size_t i = first; i < s->n && rc == 0; i++) {
		if (gone[i])
			continue;
		rc = copy_range(fd, s->v[i].start, s->v[i].end, out, &at, &read);
		end += s->v[i].end - s->v[i].start;
	}
	int64_t last = rc == 0 ? write_end(t, out, end, &at) : -1;
	if (last < 0) {
		const char *name = filter ? "-" : t->opt.archive;
		tar_fatal(t, errno, "%s: %s", tq(t, 0, name), read ? "Read error" : "Cannot write");
		return;
	}
	if (!filter && ftruncate(fd, last) < 0)
		tar_warn(t, errno, "%s: Cannot truncate", tq(t, 0, t->opt.archive));
}

/* Nothing selected from standard input: GNU tar has passed on the
 * records it read before the one the archive's end is in, and no more;
 * all of them when there was no tar header (the last one filled up: with
 * zeros here, what its buffer held before in GNU tar). */
static void pass_records(struct tar *t, int fd, const struct scan *s)
{
	int64_t rec = (int64_t)t->opt.record_size, at = -1;
	bool read = false;
	/* (a file shorter than a block is no record at all to GNU tar) */
	int64_t end = !s->not_tar ? s->eof / rec * rec : s->size < BLOCK ? 0 : s->size;
	static const char zeros[BLOCK];
	int rc = copy_range(fd, 0, end, STDOUT_FILENO, &at, &read);
	for (int64_t pad = s->not_tar ? (rec - end % rec) % rec : 0; rc == 0 && pad > 0;) {
		size_t k = pad < BLOCK ? (size_t)pad : BLOCK;
		rc = fd_write_all(STDOUT_FILENO, zeros, k, &at);
		pad -= (int64_t)k;
	}
	if (rc < 0)
		tar_fatal(t, errno, "-: %s", read ? "Read error" : "Cannot write");
}

int tar_delete(struct tar *t)
{
	bool filter = strcmp(t->opt.archive, "-") == 0;
	struct scan s = { 0 };
	bool *gone = NULL;
	int fd = filter ? spool_stdin(t) : scan_open(t, t->opt.archive);
	if (fd < 0 || label_check_fd(t, fd) < 0 || scan_members(t, fd, &s, t->opt.ignore_zeros) < 0)
		goto out;
	size_t first;
	if (!(gone = choose(t, &s, &first)))
		goto out;
	if (first < s.n)
		rewrite(t, fd, &s, gone, first, filter);
	else if (filter)
		pass_records(t, fd, &s);
	if (!t->fatal)
		members_report_missing(t);
out:
	free(gone);
	scan_free(&s);
	if (fd >= 0)
		close(fd);
	return t->diag->status;
}
