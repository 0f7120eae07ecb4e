/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * files_from_wire.c: --files-from in a pull. The list is read where the
 * command was given (FILE, or standard input), as rsync reads it, and
 * goes to the far end, which sends, before anything else: one W_FILES_FROM
 * frame a name, as files_from.c keeps them (a flag, the source directory
 * below SRC, the path below it and DEST), then W_FILES_FROM_END. The
 * sender takes them in files_from.c's cleaned form only, and skips a
 * name that leaves SRC (a ".." component) as a local run does.
 */
#include <string.h>
#include "wire.h"
#include "sync.h"

int files_from_send(struct sync *s, struct wire *w)
{
	const char *p = s->from_names.s, *end = p + s->from_names.len;
	struct wire_frame f = { STRBUF_INIT };
	int r = 0;
	while (r == 0 && p && p < end) {
		const char *pre = p + 1, *name = pre + strlen(pre) + 1;
		const char *next = name + strlen(name) + 1;
		wire_begin(&f, W_FILES_FROM);
		/* a pull shows its names as the far end lists them: without
		 * the '/' of an absolute one, as rsync shows them */
		char flags = (char)('0' + ((*p - '0') & ~FILES_FROM_ABS));
		r = sb_addc(&f.b, flags) < 0 || sb_add(&f.b, p + 1, (size_t)(next - p - 1)) < 0
		    ? -1 : wire_send(w, &f);
		p = next;
	}
	if (r == 0) {
		wire_begin(&f, W_FILES_FROM_END);
		r = wire_send(w, &f);
	}
	sb_free(&f.b);
	return r < 0 ? -1 : wire_flush(w);
}

/* Whether the n bytes at p are a path in files_from.c's cleaned form:
 * components, none empty nor ".", no NUL. */
static bool cleaned(const char *p, size_t n)
{
	if (memchr(p, '\0', n))
		return false;
	for (size_t i = 0; i < n;) {
		size_t len = strcspn(p + i, "/");
		len = len < n - i ? len : n - i;
		if (len == 0 || i + len + 1 == n || (len == 1 && p[i] == '.'))
			return false;
		i += len + 1;
	}
	return true;
}

/* A frame of one name: its flags ('0' to '7', files_from.c's NAME_*),
 * then two NUL-terminated paths. */
static bool one_name(const char *p, const char *end)
{
	if (end - p < 3 || *p < '0' || *p > '7' || end[-1] != '\0')
		return false;
	const char *pre = p + 1, *pre_end = memchr(pre, '\0', (size_t)(end - pre));
	const char *name = pre_end + 1;
	return name < end && cleaned(pre, (size_t)(pre_end - pre)) &&
	       cleaned(name, (size_t)(end - 1 - name)) && *name;
}

int files_from_recv(struct sync *s, struct wire *w)
{
	struct wire_msg m;
	struct strbuf z = STRBUF_INIT;
	int r = -1;
	while (wire_recv(w, &m, &z) == 0) {
		if (m.type == W_FILES_FROM_END) {
			r = 0;
			break;
		}
		if (m.type != W_FILES_FROM || !one_name(m.p, m.end)) {
			wire_bad(w, m.type == W_FILES_FROM ? "a --files-from name that does not parse"
			                                   : "a frame out of place in --files-from");
			break;
		}
		if (sb_add(&s->from_names, m.p, (size_t)(m.end - m.p)) < 0) {
			wire_bad(w, "more --files-from names than memory holds");
			break;
		}
	}
	sb_free(&z);
	return r;
}
