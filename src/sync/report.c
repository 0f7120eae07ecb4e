/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.c: what sweep-sync says, in rsync's words: -i's lines
 * ("YXcstpoguax name"), -v's names, "*deleting" and "deleting", --stats'
 * figures (with rsync's thousands separators), and error messages
 * "sweep-sync: what: strerror (errno)". Names are shown as rsync shows
 * them: as they are where the locale can show them, else each byte as
 * "\#ooo" (report_name()). --progress and
 * --info=progress2 draw the line of sweep-cp's --progress (progress.h),
 * on a terminal only, not rsync's lines.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sync.h"

static bool log_start(const struct sync *s);
static void log_stats(const struct sync *s);

/* The length of the valid UTF-8 character at p, or 0, as glibc's iconv
 * (rsync's check) takes them: no overlong form, no surrogate, the old
 * five- and six-byte forms allowed. */
static size_t utf8_char(const unsigned char *p)
{
	static const unsigned char least[7] = { 0, 0, 0x80, 0xa0, 0x90, 0x88, 0x84 };
	unsigned c = p[0];
	size_t n = c >= 0xfc && c <= 0xfd ? 6 : c >= 0xf8 && c <= 0xfb ? 5 : c >= 0xf0 && c <= 0xf7 ? 4
	           : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* the second byte of a lead with no bits of its own */
	bool bare = c == 0xe0 || c == 0xf0 || c == 0xf8 || c == 0xfc;
	if (n && ((bare && p[1] < least[n]) || (c == 0xed && p[1] >= 0xa0)))
		return 0;
	return n;
}

/* As rsync writes a name: what the locale's character set holds as it is
 * (a UTF-8 locale: every valid character; another: ASCII; -8: every byte
 * from 0x80), a control character but the tab, a byte that is no
 * character, and the backslash of what would read as an escape, as
 * "\#ooo". */
static void escaped_name(FILE *f, const char *name, bool eight_bit, bool utf8)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		size_t n = *p < 0x80 ? 1 : eight_bit ? 1 : utf8 ? utf8_char(p) : 0;
		bool escape = (*p < ' ' && *p != '\t') || n == 0 ||
		              (*p == '\\' && p[1] == '#' && isdigit(p[2]) && isdigit(p[3]) &&
		               isdigit(p[4]));
		if (escape) {
			fprintf(f, "\\#%03o", *p);
			continue;
		}
		fwrite(p, 1, n, f);
		p += n - 1;
	}
}

void report_name(const struct sync *s, FILE *f, const char *name)
{
	report_name_as(s, f, name, f == s->log);
}

void report_name_as(const struct sync *s, FILE *f, const char *name, bool log)
{
	/* the log has every byte from 0x80 as it is, as rsync's has */
	escaped_name(f, name, s->eight_bit || log, s->names_utf8);
}

void report_error(struct sync *s, int err, const char *fmt, ...)
{
	/* whole, however long its path (no fixed buffer: a name past
	 * PATH_MAX is ordinary input) */
	char *what = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	const char *said = what ? what : fmt;
	fflush(stdout);
	if (err) {
		fprintf(stderr, "%s: %s: %s (%d)\n", s->diag->prog, said, strerror(err), err);
		report_log(s, "%s: %s: %s (%d)", s->diag->prog, said, strerror(err), err);
	} else {
		fprintf(stderr, "%s: %s\n", s->diag->prog, said);
		report_log(s, "%s: %s", s->diag->prog, said);
	}
	free(what);
	s->partial = true;
}

void report_log_open(struct sync *s)
{
	if (!s->log_path || s->server)
		return;
	if (!(s->log = fopen(s->log_path, "ae"))) {
		int err = errno;
		fflush(stdout);
		fprintf(stderr, "%s: [client] failed to open log-file %s: %s (%d)\n", s->diag->prog,
		        s->log_path, strerror(err), err);
		puts("Ignoring \"log file\" setting.");
		return;
	}
	/* a pull's list comes from the far end */
	bool pull = s->nfiles > 0 && remote_is_host_path(s->files[0]);
	report_log(s, pull ? "receiving file list" : "building file list");
}

static const char *count(char *buf, uint64_t n, int human);
static const char *rate(char *buf, const struct sync *s, uint64_t bytes);

/* -v's last lines' bytes: over a remote shell those that went over the
 * wire each way, as rsync counts them; here, with no protocol, the data
 * written. */
static void bytes_moved(const struct sync *s, uint64_t *sent, uint64_t *received)
{
	*sent = s->wire_counted ? s->wire_sent
	        : s->dry_run ? 0 : s->n.transferred_size - s->n.not_sent;
	*received = s->wire_counted ? s->wire_received : 0;
}

void report_log_close(struct sync *s, const char *end_line)
{
	if (!s->log)
		return;
	char b[40], c[40], d[40];
	uint64_t sent, received;
	bytes_moved(s, &sent, &received);
	/* -v's summary (--stats' figures before it), -q or not, or rsync's
	 * line of its own */
	if (s->stats)
		log_stats(s);
	if (s->verbose || s->stats) {
		char r[48];
		report_log(s, "sent %s bytes  received %s bytes  %s bytes/sec",
		           report_size(b, sent, s->human), report_size(d, received, s->human),
		           rate(r, s, sent + received));
		report_log(s, "total size is %s  speedup is %.2f%s", report_size(c, s->n.total_size, s->human),
		           sent + received ? (double)s->n.total_size / (double)(sent + received) : 0.0,
		           s->dry_run ? " (DRY RUN)" : "");
	} else {
		/* (rsync's own line has its numbers plain, -h or not) */
		report_log(s, "sent %s bytes  received %s bytes  total size %s",
		           count(b, sent, 0), count(d, received, 0), count(c, s->n.total_size, 0));
	}
	if (end_line)
		report_log(s, "%s", end_line);
	if (fclose(s->log) != 0) {
		int err = errno;
		fprintf(stderr, "%s: failed to write log-file %s: %s (%d)\n", s->diag->prog,
		        s->log_path, strerror(err), err);
	}
	s->log = NULL;
}

/* The start of a line of --log-file: rsync's time and process. */
static bool log_start(const struct sync *s)
{
	if (!s->log)
		return false;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(when, sizeof(when), "%Y/%m/%d %H:%M:%S", localtime_r(&now, &tm));
	fprintf(s->log, "%s [%ld] ", when, (long)getpid());
	return true;
}

void report_log(const struct sync *s, const char *fmt, ...)
{
	if (!log_start(s))
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(s->log, fmt, ap);
	va_end(ap);
	putc('\n', s->log);
}

/* rsync's %o: a local run and a push send, a pull receives. */
static const char *operation(const struct sync *s)
{
	return s->remote_source && !s->server ? "recv" : "send";
}

bool report_itemized(const struct sync *s)
{
	return s->out_format ? out_format_has(s->out_format, 'i') : s->itemize;
}

void report_item(struct sync *s, const char *code, const char *rel, bool dir,
                 const char *target)
{
	/* %f: the source's path where rsync's sender knows it, else the name
	 * (--files-from's names are below the SRC it changes into; a pull's
	 * receiver has the names alone) */
	const char *source = s->files_from || (s->remote_source && !s->server) ? NULL
	                     : s->item_source;
	struct sync_item it = { code, rel, dir, target, code[0] == 'h', s->item_st, operation(s),
		                source, code[0] == '>' && !s->dry_run };
	bool has_i = report_itemized(s);
	/* the log has every change, -q or not, but a file's attributes alone
	 * only when the lines shown are -i's (rsync's sender logs what it
	 * shows then); a dry run's transfers are not made, so not logged (nor
	 * its deletions), as rsync logs them when they are */
	if (!(s->dry_run && code[0] == '>') && !(code[0] == '.' && !dir && !has_i) &&
	    !(s->log_format && !*s->log_format) && log_start(s))
		out_format_line(s, s->log, s->log_format ? s->log_format : "%i %n%L", &it);
	if (s->quiet || (!has_i && s->info[INFO_NAME] < 1 && !s->out_format) || s->sender_side)
		return;
	/* -v alone names what is transferred or made, and directories whose
	 * attributes change; NAME2 (-vv) a file whose attributes alone
	 * change, as its name only, as rsync says it when it sets them */
	if (!has_i && code[0] == '.' && !dir) {
		if (s->info[INFO_NAME] >= 2) {
			report_name(s, stdout, rel);
			putchar('\n');
		}
		return;
	}
	/* a push shows what went out ('<'); its receiver, the far end, says it */
	char shown[12];
	snprintf(shown, sizeof(shown), "%s", code);
	if (code[0] == '>' && s->server)
		shown[0] = '<';
	it.code = shown;
	out_format_line(s, stdout, s->out_format ? s->out_format : s->itemize ? "%i %n%L" : "%n%L",
	                &it);
}

void report_delete(struct sync *s, const char *rel, bool dir)
{
	struct stat st = { .st_mode = dir ? S_IFDIR : S_IFREG };
	struct sync_item it = { NULL, rel, dir, NULL, false, &st, "del.", NULL, false };
	/* rsync's: a format without %i or %o says "deleting NAME" */
	if (!s->dry_run && log_start(s)) {
		const char *f = s->log_format ? s->log_format : "%i %n%L";
		out_format_line(s, s->log,
		                out_format_has(f, 'i') || out_format_has(f, 'o') ? f : "deleting %n", &it);
	}
	bool has_i = report_itemized(s);
	/* (rsync's: DEL, or the names' format, NAME's) */
	if (s->quiet || (!has_i && s->info[INFO_DEL] < 1 && s->info[INFO_NAME] < 1 && !s->out_format))
		return;
	const char *f = s->out_format ? s->out_format : s->itemize ? "%i %n%L" : "deleting %n";
	out_format_line(s, stdout, has_i || out_format_has(f, 'o') ? f : "deleting %n", &it);
}

/* A count as rsync writes it: with thousands separators, or without
 * (--no-human-readable). */
static const char *count(char *buf, uint64_t n, int human)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%" PRIu64, n);
	char *p = buf;
	for (int i = 0; i < len; i++) {
		if (human && i > 0 && (len - i) % 3 == 0)
			*p++ = ',';
		*p++ = digits[i];
	}
	*p = 0;
	return buf;
}

/* A size in bytes as rsync writes it: a count, or under -h in units of
 * 1000 (-hh: 1024) with two decimals, "1.84M", once it reaches one. */
const char *report_size(char *buf, uint64_t n, int human)
{
	uint64_t mult = human == 2 ? 1000 : 1024, unit = 1;
	const char *units = " KMGTPE";
	if (human < 2 || n < mult)
		return count(buf, n, human);
	while (n / mult >= unit && units[1]) {
		unit *= mult;
		units++;
	}
	snprintf(buf, 40, "%.2f%c", (double)n / (double)unit, *units);
	return buf;
}

/* -v's bytes/sec, as rsync works it out: the bytes over the whole seconds
 * the run took and half a second more; two decimals, with separators, or
 * under -h in units as report_size(). */
static const char *rate(char *buf, const struct sync *s, uint64_t bytes)
{
	double r = (double)bytes / (0.5 + (double)(time(NULL) - s->started));
	double mult = s->human == 2 ? 1000 : 1024;
	if (s->human >= 2 && r >= mult) {
		const char *units = " KMGTPE";
		while (r >= mult && units[1]) {
			r /= mult;
			units++;
		}
		snprintf(buf, 48, "%.2f%c", r, *units);
		return buf;
	}
	char whole[40];
	uint64_t cents = (uint64_t)(r * 100 + 0.5);
	snprintf(buf, 48, "%s.%02u", count(whole, cents / 100, s->human), (unsigned)(cents % 100));
	return buf;
}

/* "N (reg: a, dir: b, ...)", rsync's breakdown by kind (none at 0). */
static void by_kind(FILE *f, const char *what, const uint64_t *v, int human)
{
	static const char *const names[K_NKINDS] = { "reg", "dir", "link", "dev", "special" };
	char b[40];
	uint64_t total = 0;
	for (int k = 0; k < K_NKINDS; k++)
		total += v[k];
	fprintf(f, "Number of %s: %s", what, count(b, total, human));
	const char *sep = " (";
	for (int k = 0; k < K_NKINDS && total; k++) {
		if (!v[k])
			continue;
		fprintf(f, "%s%s: %s", sep, names[k], count(b, v[k], human));
		sep = ", ";
	}
	fputs(total ? ")\n" : "\n", f);
}

/* --stats' figures into f. */
static void stats_to(const struct sync *s, FILE *f)
{
	char b[40];
	by_kind(f, "files", s->n.files, s->human);
	by_kind(f, "created files", s->n.created, s->human);
	by_kind(f, "deleted files", s->n.deleted, s->human);
	fprintf(f, "Number of regular files transferred: %s\n", count(b, s->n.transferred, s->human));
	fprintf(f, "Total file size: %s bytes\n", report_size(b, s->n.total_size, s->human));
	fprintf(f, "Total transferred file size: %s bytes\n",
	        report_size(b, s->n.transferred_size, s->human));
	fprintf(f, "Literal data: %s bytes\n",
	        report_size(b, s->dry_run ? 0 : s->n.transferred_size - s->n.not_sent, s->human));
	fputs("Matched data: 0 bytes\n", f);
	/* rsync's list is a protocol's: here the entries' frames, none
	 * when no wire was used (as rsync counts its own local runs); its
	 * generation and transfer times are left out, as rsync leaves them
	 * out when it has none: the list is not built before the copy */
	uint64_t sent, received;
	bytes_moved(s, &sent, &received);
	fprintf(f, "File list size: %s\n", report_size(b, s->wire_counted ? s->wire_list : 0, s->human));
	fprintf(f, "Total bytes sent: %s\n", report_size(b, sent, s->human));
	fprintf(f, "Total bytes received: %s\n", report_size(b, received, s->human));
}

void report_stats(const struct sync *s)
{
	putchar('\n');
	stats_to(s, stdout);
}

/* --stats' figures into the log, a line each. */
static void log_stats(const struct sync *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	stats_to(s, m);
	if (fclose(m) == 0)
		for (char *line = buf, *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
			*nl = 0;
			report_log(s, "%s", line);
		}
	free(buf);
}

void report_start(const struct sync *s)
{
	/* rsync sends the whole list first when it deletes in a pass, and
	 * when the list is given */
	bool whole_list = (s->delete && s->delete_when != DEL_DURING && !s->delete_delay) ||
	                  (s->files_from && !s->relative);
	/* without -r rsync's list has no parts to send: nothing said */
	if (!s->recursive && !(s->files_from && !s->relative))
		return;
	if (s->info[INFO_FLIST] >= 1)
		puts(whole_list ? "building file list ... done" : "sending incremental file list");
}

void report_end(const struct sync *s)
{
	if (s->info[INFO_STATS] < 1)
		return;
	char b[40], c[40], d[40];
	uint64_t sent, received;
	bytes_moved(s, &sent, &received);
	char r[48];
	printf("\nsent %s bytes  received %s bytes  %s bytes/sec\n", report_size(b, sent, s->human),
	       report_size(d, received, s->human), rate(r, s, sent + received));
	printf("total size is %s  speedup is %.2f%s\n", report_size(c, s->n.total_size, s->human),
	       sent + received ? (double)s->n.total_size / (double)(sent + received) : 0.0,
	       s->dry_run ? " (DRY RUN)" : "");
}

void report_deletes_stopped(const struct sync *s)
{
	if (s->skipped_deletes)
		fprintf(stderr, "Deletions stopped due to --max-delete limit (%" PRIu64 " skipped)\n",
		        s->skipped_deletes);
}

void report_progress_start(struct sync *s)
{
	if (s->meter_wanted && !s->quiet)
		s->meter = progress_start();
}

void report_progress(void *arg, uint64_t files, uint64_t bytes, uint64_t known)
{
	struct sync *s = arg;
	s->meter_files = files;
	s->meter_bytes = bytes;
	progress_update(s->meter, files, bytes, known);
}

void report_progress_end(struct sync *s)
{
	fflush(stdout);
	progress_end(s->meter, s->meter_files, s->meter_bytes);
	s->meter = NULL;
}
