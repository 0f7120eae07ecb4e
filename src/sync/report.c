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
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

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
void report_name(const struct sync *s, FILE *f, const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		size_t n = *p < 0x80 ? 1 : s->eight_bit ? 1 : s->names_utf8 ? utf8_char(p) : 0;
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

void report_error(struct sync *s, int err, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s: ", s->diag->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s (%d)", strerror(err), err);
	fputc('\n', stderr);
	s->partial = true;
}

void report_item(struct sync *s, const char *code, const char *rel, bool dir,
                 const char *target)
{
	if (s->quiet || (!s->itemize && !s->verbose && !s->progress_names) || s->sender_side)
		return;
	/* -v alone names what is transferred or made, and directories whose
	 * attributes change */
	if (!s->itemize && code[0] == '.' && !dir)
		return;
	/* a push shows what went out ('<'); its receiver, the far end, says it */
	if (s->itemize)
		printf("%c%s ", code[0] == '>' && s->server ? '<' : code[0], code + 1);
	if (s->name_abs)
		putchar('/');
	report_name(s, stdout, rel);
	if (dir && strcmp(rel + strlen(rel) - 1, "/") != 0)
		putchar('/');
	if (target) {
		fputs(code[0] == 'h' ? " => " : " -> ", stdout); /* a hard link's first */
		report_name(s, stdout, target);
	}
	putchar('\n');
}

void report_delete(struct sync *s, const char *rel, bool dir)
{
	if (s->quiet || (!s->itemize && !s->verbose))
		return;
	fputs(s->itemize ? "*deleting   " : "deleting ", stdout);
	if (s->name_abs)
		putchar('/');
	report_name(s, stdout, rel);
	if (dir)
		putchar('/');
	putchar('\n');
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
static const char *size(char *buf, uint64_t n, int human)
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

/* "N (reg: a, dir: b, ...)", rsync's breakdown by kind (none at 0). */
static void by_kind(const char *what, const uint64_t *v, int human)
{
	static const char *const names[K_NKINDS] = { "reg", "dir", "link", "dev", "special" };
	char b[40];
	uint64_t total = 0;
	for (int k = 0; k < K_NKINDS; k++)
		total += v[k];
	printf("Number of %s: %s", what, count(b, total, human));
	const char *sep = " (";
	for (int k = 0; k < K_NKINDS && total; k++) {
		if (!v[k])
			continue;
		printf("%s%s: %s", sep, names[k], count(b, v[k], human));
		sep = ", ";
	}
	puts(total ? ")" : "");
}

void report_stats(const struct sync *s)
{
	char b[40];
	putchar('\n');
	by_kind("files", s->n.files, s->human);
	by_kind("created files", s->n.created, s->human);
	by_kind("deleted files", s->n.deleted, s->human);
	printf("Number of regular files transferred: %s\n", count(b, s->n.transferred, s->human));
	printf("Total file size: %s bytes\n", size(b, s->n.total_size, s->human));
	printf("Total transferred file size: %s bytes\n", size(b, s->n.transferred_size, s->human));
	printf("Literal data: %s bytes\n", size(b, s->dry_run ? 0 : s->n.transferred_size, s->human));
	printf("Matched data: 0 bytes\n");
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
	if ((s->verbose || s->progress_names) && !s->quiet)
		puts(whole_list ? "building file list ... done" : "sending incremental file list");
}

void report_end(const struct sync *s)
{
	if (!s->verbose && !s->stats)
		return;
	if (s->quiet)
		return;
	char b[40], c[40];
	/* no protocol here: what was "sent" is the data written */
	uint64_t sent = s->dry_run ? 0 : s->n.transferred_size;
	printf("\nsent %s bytes  received 0 bytes\n", size(b, sent, s->human));
	printf("total size is %s  speedup is %.2f%s\n", size(c, s->n.total_size, s->human),
	       sent ? (double)s->n.total_size / (double)sent : 0.0,
	       s->dry_run ? " (DRY RUN)" : "");
}

void report_deletes_stopped(const struct sync *s)
{
	if (s->skipped_deletes)
		fprintf(stderr, "Deletions stopped due to --max-delete limit (%" PRIu64 " skipped)\n",
		        s->skipped_deletes);
}

int report_info_option(struct sync *s, const char *arg)
{
	char *list = strdup(arg), *save = NULL;
	int r = list ? 0 : -1;
	for (char *w = list ? strtok_r(list, ",", &save) : NULL; w && r == 0;
	     w = strtok_r(NULL, ",", &save)) {
		if (strcmp(w, "progress2") == 0) {
			s->meter_wanted = true;
			s->progress_names = false;
		} else if (strcmp(w, "progress1") == 0 || strcmp(w, "progress") == 0) {
			s->meter_wanted = true;
		} else if (strcmp(w, "progress0") == 0) {
			s->meter_wanted = false;
		} else {
			fprintf(stderr, "Unknown --info item: \"%s\"\n", w);
			r = -1;
		}
	}
	free(list);
	return r;
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
