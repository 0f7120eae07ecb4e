/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * operands.c: SRC... DEST, by rsync's rules. DEST is a directory (made when
 * missing: its last component only, as rsync makes it) unless there is one
 * source, not a directory, and DEST is not one and has no trailing slash:
 * then DEST is the file's new name. A SRC that ends in '/' (or "/.") stands
 * for the directory's contents, which go into DEST itself; any other SRC
 * goes into DEST under its last component.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sync.h"

static bool ends_in_slash(const char *path)
{
	size_t n = strlen(path);
	return n && path[n - 1] == '/';
}

/* Whether SRC names a directory's contents: a trailing '/', "." or "..".
 * (".." counts too: taken as a name, it would make the top of the copy
 * DEST/.., above DEST.) */
bool sync_is_contents(const char *src)
{
	size_t n = strlen(src);
	return (n && src[n - 1] == '/') || strcmp(src, ".") == 0 || strcmp(src, "..") == 0 ||
	       (n >= 2 && strcmp(src + n - 2, "/.") == 0) ||
	       (n >= 3 && strcmp(src + n - 3, "/..") == 0);
}

const char *sync_abspath(struct sync *s, const char *path)
{
	if (path[0] == '/')
		return path;
	char *cwd = getcwd(NULL, 0);
	sb_reset(&s->abspath);
	int r = cwd ? sb_printf(&s->abspath, "%s/%s", strcmp(cwd, "/") ? cwd : "", path) : -1;
	free(cwd);
	return r == 0 ? s->abspath.s : path;
}

/* src as rsync names a source it cannot stat: its "." components and
 * empty ones left out; a directory's contents (a trailing '/' or "/."):
 * without them, and nothing else changed. */
static char *shown_source(const char *src, bool *contents)
{
	size_t n = strlen(src);
	*contents = n > 1 && (src[n - 1] == '/' || (src[n - 1] == '.' && src[n - 2] == '/'));
	if (*contents) {
		while (n > 1 && (src[n - 1] == '/' || (src[n - 1] == '.' && src[n - 2] == '/')))
			n -= src[n - 1] == '/' ? 1 : 2;
		return strndup(src, n);
	}
	char *out = malloc(n + 1), *o = out;
	for (const char *p = src; out && *p;) {
		size_t len = strcspn(p, "/");
		if (len && !(len == 1 && *p == '.')) {
			if (o > out || *src == '/')
				*o++ = '/';
			memcpy(o, p, len);
			o += len;
		}
		p += len;
		p += *p == '/';
	}
	if (out)
		*o = 0;
	return out;
}

bool sync_missing_ok(const struct sync *s, const char *src, int err)
{
	/* (a SRC/ whose directory is not there is rsync's change_dir error) */
	return err == ENOENT && (s->ignore_missing || s->delete_missing) && !sync_is_contents(src);
}

void sync_sources_check(struct sync *s, char *const *srcs, int n)
{
	struct stat st;
	for (int i = 0; i < n; i++)
		if (lstat(srcs[i], &st) < 0 && !sync_missing_ok(s, srcs[i], errno))
			s->io_error = true;
}

/* --delete-missing-args: a SRC that is not there, "placed" as a file: its
 * copy where it would go (name in dfd) removed. */
static int missing_tree(void *arg, struct copy *c, const char *src, int dfd, const char *name,
                        const char *shown)
{
	(void)c, (void)src, (void)shown;
	delete_missing(arg, dfd, name, name);
	return 0;
}

void sync_place_missing(struct sync *s, struct copy *c, struct sync_dest *d, const char *src,
                        int nsrc, sync_tree_fn run, void *arg)
{
	s->arg_missing = true;
	sync_place(s, c, d, src, S_IFREG, nsrc, run ? run : missing_tree, run ? arg : s);
	s->arg_missing = false;
}

/* rsync's message for a source it cannot stat: the path made absolute. */
void link_stat_failed(struct sync *s, const char *src, int err)
{
	if (sync_missing_ok(s, src, err))
		return; /* --ignore-missing-args, --delete-missing-args: no error */
	bool contents;
	char *shown = shown_source(src, &contents);
	s->io_error = true;
	report_error(s, err, contents ? "[sender] change_dir \"%s\" failed"
	                              : "[sender] link_stat \"%s\" failed",
	             sync_abspath(s, shown ? shown : src));
	free(shown);
}

/* The directory a file named dst goes in, opened; -1 with errno. */
static int open_parent(const char *dst)
{
	const char *slash = strrchr(dst, '/');
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (slash == dst)
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = strndup(dst, (size_t)(slash - dst));
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dir);
	return fd;
}

/* DEST that cannot be used (what), in rsync's words, its path absolute;
 * the run ends with status. */
static void dest_failed(struct sync *s, int err, const char *what, const char *dest, int status)
{
	size_t n = strlen(dest);
	while (n > 1 && dest[n - 1] == '/')
		n--;
	char *bare = strndup(dest, n);
	const char *path = sync_abspath(s, bare ? bare : dest);
	if (status == SYNC_FILEIO)
		report_error(s, err, "[Receiver] %s \"%s\" failed", what, path);
	else
		report_error(s, err, "[Receiver] ERROR: %s \"%s\"", what, path);
	free(bare);
	s->dest_status = status;
}

/* DEST as a directory, made if missing (not in a dry run: -1 then, with
 * *made). Returns its descriptor, -1 in a dry run, or -2 (reported). */
static int open_dest_dir(struct sync *s, const char *dest, bool *made)
{
	*made = false;
	int fd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0)
		return fd;
	if (errno != ENOENT) {
		int err = errno;
		if (stat(dest, &st) == 0 && !S_ISDIR(st.st_mode)) {
			fflush(stdout); /* (rsync's words, without its name) */
			fprintf(stderr, "ERROR: destination must be a directory when copying more "
			                "than 1 file\n");
			s->partial = true;
			s->dest_status = SYNC_FILESELECT;
		} else {
			dest_failed(s, err, "cannot stat destination", dest, SYNC_FILESELECT);
		}
		return -2;
	}
	if (!s->dry_run && mkdir(dest, 0777) < 0) {
		dest_failed(s, errno, "mkdir", dest, SYNC_FILEIO);
		return -2;
	}
	*made = true;
	if ((s->info[INFO_NAME] >= 1 || report_itemized(s)) && !s->quiet) {
		size_t n = strlen(dest);
		while (n > 1 && dest[n - 1] == '/')
			n--;
		printf("created directory %.*s\n", (int)n, dest);
	}
	if (s->dry_run)
		return -1;
	fd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		report_error(s, errno, "[Receiver] change_dir#3 \"%s\" failed", dest);
	return fd >= 0 ? fd : -2;
}

/* Sync one SRC into DEST's directory (shown as dest), by run. */
static void sync_into(struct sync *s, struct copy *c, const char *src, struct sync_dest *d,
                      sync_tree_fn run, void *arg)
{
	struct strbuf base = STRBUF_INIT, shown = STRBUF_INIT;
	bool all = sync_is_contents(src);
	const char *dest = d->dest;
	if (sb_last_component(&base, src) < 0 ||
	    sb_printf(&shown, "%s%s%s", dest, ends_in_slash(dest) ? "" : "/", all ? "" : base.s) < 0) {
		report_error(s, ENOMEM, "%s", src);
		goto out;
	}
	s->prefix = all ? "" : base.s;
	s->current_src = src;
	s->root_created = all && d->made;
	const char *name = all ? "." : base.s;
	bool passes = s->delete && !s->arg_missing;
	if (passes && s->delete_when == DEL_BEFORE)
		delete_pass(s, src, d->dfd, name);
	if (run(arg, c, src, d->dfd, name, shown.s) < 0)
		s->partial = true;
	if (passes && s->delete_when == DEL_AFTER && !copy_write_failed(c))
		delete_pass(s, src, d->dfd, name);
out:
	sb_free(&base);
	sb_free(&shown);
}

/* The directory of DEST, a file's new name, could not be opened: said as
 * rsync says it (its path made absolute), the run's status 3. */
static void parent_failed(struct sync *s, int err, const char *dest)
{
	size_t n = strlen(dest);
	while (n > 1 && dest[n - 1] == '/')
		n--;
	const char *slash = memrchr(dest, '/', n);
	char *dir = slash ? strndup(dest, slash > dest ? (size_t)(slash - dest) : 1) : NULL;
	report_error(s, err, "[Receiver] change_dir#3 \"%s\" failed",
	             sync_abspath(s, dir ? dir : "."));
	free(dir);
	s->dest_status = SYNC_FILESELECT;
}

/* The one source, not a directory, copied to DEST as its new name. */
static bool place_file(struct sync *s, struct copy *c, const char *src, const char *dest,
                       sync_tree_fn run, void *arg)
{
	struct strbuf base = STRBUF_INIT, sbase = STRBUF_INIT;
	int pfd = -1;
	if (sb_last_component(&base, dest) < 0 || sb_last_component(&sbase, src) < 0)
		report_error(s, ENOMEM, "%s", dest);
	else if ((pfd = open_parent(dest)) < 0)
		parent_failed(s, errno, dest);
	linkdest_open(s, dest, true);
	backups_open(s, dest, true);
	s->prefix = sb_str(&sbase); /* rsync names it as the source does */
	if (pfd >= 0 && run(arg, c, src, pfd, base.s, dest) < 0)
		s->partial = true;
	if (pfd >= 0)
		close(pfd);
	sb_free(&base);
	sb_free(&sbase);
	return pfd >= 0;
}

bool sync_dest_open(struct sync *s, struct sync_dest *d)
{
	if (d->dfd == -2 && !d->failed) {
		d->dfd = open_dest_dir(s, d->dest, &d->made);
		d->failed = d->dfd == -2;
		struct stat st;
		if (d->dfd >= 0 && fstat(d->dfd, &st) == 0)
			s->dest_dev = st.st_dev;
		if (!d->failed) {
			linkdest_open(s, d->dest, false);
			backups_open(s, d->dest, false);
		}
	}
	return !d->failed;
}

/* --mkpath: the directories of path (its first len bytes) that are
 * missing, made (counted only, in a dry run), as rsync says it. Returns 0,
 * or -1 (reported: the run ends, 11). */
static int make_path(struct sync *s, const char *dest, const char *path, size_t len)
{
	char *p = strndup(path, len);
	int made = 0, err = p ? 0 : ENOMEM;
	for (size_t i = 1; p && !err && i <= len; i++) {
		if (i < len && p[i] != '/')
			continue;
		char keep = p[i];
		p[i] = 0;
		struct stat st;
		if (stat(p, &st) == 0)
			err = S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
		else if (errno != ENOENT)
			err = errno;
		else if (!s->dry_run && mkdir(p, 0777) < 0)
			err = errno;
		else
			made++;
		p[i] = keep;
	}
	free(p);
	if (err) {
		dest_failed(s, err, "mkdir", dest, SYNC_FILEIO);
		return -1;
	}
	if (made && (s->info[INFO_NAME] >= 1 || report_itemized(s)) && !s->quiet)
		printf("created %d director%s for %.*s\n", made, made == 1 ? "y" : "ies", (int)len, path);
	return 0;
}

/* --mkpath, once: what DEST needs made above it, or itself as a directory
 * for more than one file or a directory. Returns false after a failure. */
static bool dest_path(struct sync *s, struct sync_dest *d, bool one_file)
{
	if (!s->mkpath || d->path_made)
		return true;
	d->path_made = true;
	size_t len = strlen(d->dest);
	while (len > 1 && d->dest[len - 1] == '/')
		len--;
	if (one_file) /* DEST names the file: its directory is the path */
		while (len > 0 && d->dest[len - 1] != '/')
			len--;
	while (len > 1 && d->dest[len - 1] == '/')
		len--;
	if (len == 0 || make_path(s, d->dest, d->dest, len) == 0)
		return true;
	d->failed = true;
	return false;
}

bool sync_place(struct sync *s, struct copy *c, struct sync_dest *d, const char *src,
                mode_t mode, int nsrc, sync_tree_fn run, void *arg)
{
	struct stat dst;
	s->tree_no++;
	if (!dest_path(s, d, nsrc == 1 && !S_ISDIR(mode) && !ends_in_slash(d->dest)))
		return false;
	if (nsrc == 1 && !S_ISDIR(mode) && !ends_in_slash(d->dest) &&
	    (stat(d->dest, &dst) < 0 || !S_ISDIR(dst.st_mode)))
		return place_file(s, c, src, d->dest, run, arg);
	if (!sync_dest_open(s, d))
		return false;
	sync_into(s, c, src, d, run, arg);
	d->made = false;
	return true;
}

void sync_dest_top(struct sync *s, struct sync_dest *d)
{
	struct stat now;
	const struct stat *top = &s->dest_top;
	if (!s->dest_top_set || s->dry_run || d->dfd < 0 || fstat(d->dfd, &now) < 0)
		return;
	/* without -p, a DEST this run made is a new directory to rsync: the
	 * source's permissions less the umask, no special bits of its own
	 * (the set-group-ID bit it took from its parent kept) */
	mode_t want = top->st_mode & 07777;
	if (!s->perms && s->dest_top_made) {
		mode_t mask = umask(0);
		umask(mask);
		want = (want & 0777 & ~mask) | (now.st_mode & S_ISGID);
	}
	if ((s->perms || s->dest_top_made) && (now.st_mode & 07777) != want &&
	    fchmod(d->dfd, want) < 0)
		report_error(s, errno, "failed to set permissions on \"%s\"", d->dest);
	struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, top->st_mtim };
	/* (found there, the same second or within --modify-window: left, as
	 * rsync; made by the run, to the nanosecond, as what it makes below) */
	int window = s->dest_top_made ? -1 : s->copy.mtime_window;
	if (s->times && !s->copy.omit_dir_times &&
	    copy_cmp_mtime(&now.st_mtim, &top->st_mtim, window) && futimens(d->dfd, times) < 0)
		report_error(s, errno, "failed to set times on \"%s\"", d->dest);
}

void sync_dest_close(struct sync_dest *d)
{
	if (d->dfd >= 0)
		close(d->dfd);
	d->dfd = -2;
}

bool sync_operands_ok(struct sync *s)
{
	const char *why = NULL;
	if (s->nfiles < 2)
		why = s->nfiles ? "missing DEST operand (no listing of SRC: --list-only is not "
		                  "supported)"
		                : "missing SRC and DEST operands";
	else if (!*s->files[s->nfiles - 1])
		why = "Empty destination arg specified (use \".\").";
	/* rsync deletes against all the sources at once; one source at a time,
	 * each would delete what the others brought */
	else if (s->files_from && s->nfiles > 2)
		why = "--files-from takes one SRC, the directory its names are in";
	if (!why)
		return true;
	diag_error(s->diag, 0, "%s", why);
	if (s->nfiles < 2 || *s->files[s->nfiles - 1]) /* rsync says no more of an empty DEST */
		diag_try_help(s->diag);
	s->usage_error = true;
	return false;
}

static int local_tree(void *arg, struct copy *c, const char *src, int dfd, const char *name,
                      const char *shown)
{
	(void)arg;
	struct stat st;
	dev_t src_dev = stat(src, &st) == 0 ? st.st_dev : 0; /* 0: on no disk apart */
	struct prewalk *p = sync_prewalk_start(dfd, name, src_dev);
	int r = copy_tree(c, src, dfd, name, shown);
	sync_prewalk_end(p);
	return r;
}

/* Without -r, a SRC that is a directory is skipped before DEST is looked
 * at, as rsync leaves it out of its file list: said (by its name, "." for
 * SRC/), and DEST not made for it (unless given as DEST/), nor a directory
 * for the one file left. */
static bool skipped_dir(const struct sync *s, const struct stat *st)
{
	return S_ISDIR(st->st_mode) && !s->recursive && !s->files_from;
}

static void say_skipped(const struct sync *s, const char *src)
{
	struct strbuf base = STRBUF_INIT;
	if (s->quiet)
		return;
	printf("skipping directory ");
	report_name(s, stdout, sync_is_contents(src) || sb_last_component(&base, src) < 0
	                    ? "." : base.s);
	printf("\n");
	sb_free(&base);
}

/* The SRCs that will be sent: those that are there and not skipped. */
static int sources_sent(const struct sync *s, int nsrc)
{
	int n = 0;
	struct stat st;
	for (int i = 0; i < nsrc; i++)
		n += lstat(s->files[i], &st) < 0 ? !(s->ignore_missing && !s->delete_missing &&
		                                     sync_missing_ok(s, s->files[i], errno))
		                                  : !skipped_dir(s, &st);
	return n;
}

void sync_run(struct sync *s)
{
	if (!sync_operands_ok(s))
		return;
	if (remote_operands(s)) {
		remote_run(s);
		return;
	}
	report_start(s);
	int nsrc = s->nfiles - 1;
	int nsent = sources_sent(s, nsrc);
	struct copy *c = copy_new(&s->copy, s->diag);
	if (!c) {
		report_error(s, ENOMEM, "copy engine");
		return;
	}
	sync_signals_copy(c);
	sync_sources_check(s, s->files, nsrc);
	prune_scan(s, s->files, nsrc);
	s->removals_wait = s->copy_links || nsrc > 1 || s->files_from;
	s->first_wins = nsrc > 1 || s->files_from;
	struct sync_dest d = { .dest = s->files[nsrc], .dfd = -2 };
	for (int i = 0; i < nsrc && !d.failed && !copy_write_failed(c); i++) {
		struct stat st;
		if (lstat(s->files[i], &st) < 0) {
			int err = errno; /* (what placing it leaves in errno is not its error) */
			if (s->delete_missing && sync_missing_ok(s, s->files[i], err) && !s->files_from)
				sync_place_missing(s, c, &d, s->files[i], nsent, NULL, NULL);
			link_stat_failed(s, s->files[i], err);
			continue;
		}
		if (s->files_from) { /* DEST a directory, whatever SRC is */
			if (sync_dest_open(s, &d))
				files_from_run(s, c, s->files[i], d.dfd, d.dest, d.made);
			d.made = false;
			continue;
		}
		if (skipped_dir(s, &st)) {
			say_skipped(s, s->files[i]);
			continue;
		}
		sync_place(s, c, &d, s->files[i], st.st_mode, nsent, local_tree, s);
	}
	/* nothing sent: rsync still makes a DEST given as a directory */
	if (nsent == 0 && ends_in_slash(d.dest))
		sync_dest_open(s, &d);
	sync_signals_copy(NULL);
	bool ended = sync_write_ended(s, c);
	copy_free(c); /* (its writer may still be renaming into DEST) */
	sync_removals_end(s); /* what was copied whole, whatever came after */
	if (!ended)
		sync_dest_top(s, &d);
	sync_dest_close(&d);
}

bool sync_write_ended(struct sync *s, struct copy *c)
{
	if (!copy_write_failed(c))
		return false;
	s->dest_status = SYNC_FILEIO;
	return true;
}
