/*
 * extract.h: the state of one -t/-x run, shared by extract.c (the reader,
 * the disk writer, the loop over members), xnames.c (which members, under
 * which names) and xdata.c (member contents and times).
 */
#ifndef SWEEP_TAR_EXTRACT_H
#define SWEEP_TAR_EXTRACT_H

#include "tar.h"

struct extract {
	struct tar *t;
	struct archive *in;
	struct archive *disk;   /* NULL for -t and -O */
	struct archive_entry *current;
	int fd;                 /* the archive's descriptor, -1 when not opened */
	struct strbuf name;     /* the member name after --strip-components */
	struct strbuf link;
};

/* xnames.c: the name a member is listed or extracted as, or NULL when it is
 * left out (not selected, excluded, stripped to nothing, unsafe: reported). */
const char *xnames_member(struct extract *x, struct archive_entry *e);
/* Make a hard link's target safe and stripped like member names. Returns
 * false when the member is to be left out. */
bool xnames_hardlink(struct extract *x, struct archive_entry *e);

/* xdata.c: copy the member's data to the disk writer, or to standard output
 * when there is none (-O). Returns 0, or -1 after a fatal read error. */
int xdata_copy(struct extract *x, const char *name, uint64_t size);
/* GNU tar's notes on a time about to be set: before 1970, in the future. */
void xdata_check_time(struct tar *t, struct archive_entry *e, const char *name);

/* extract.c: a failed read of the archive (fatal, reported). */
void extract_read_failed(struct extract *x);

#endif
