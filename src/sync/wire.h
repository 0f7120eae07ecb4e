/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * wire.h: the protocol between sweep-sync and its peer on another host
 * (sweep-sync --server, started through a remote shell).
 *
 * After a fixed greeting ("SWEEPSYNC", NUL, a 32-bit version) in each
 * direction, everything is a frame: a 32-bit length (of what follows),
 * one byte of type, and the payload. Numbers are little-endian, strings
 * a 32-bit length and their bytes. The conversation, per source tree
 * (see remote.c for who starts whom):
 *
 *   sender   -> receiver  W_TREE      the source's root: name, kind
 *   receiver -> sender    W_MANIFEST* the destination's entries (disk
 *                                     order), then W_MANIFEST_END
 *   sender   -> receiver  W_PREDELETE* --delete-before only: each source
 *                                     directory's path, after W_NAMES*
 *                                     with its names; W_PREDELETE_END
 *   sender   -> receiver  W_ENTRY*    the source's entries in its walk's
 *                                     order (a directory's, under --delete,
 *                                     after W_NAMES* with its names); a
 *                                     regular file whose data
 *                                     the receiver lacks is followed by
 *                                     W_DATA/W_DATAZ frames and W_DATA_END
 *                                     (data in the sender's read order)
 *   sender   -> receiver  W_TREE_END
 *   receiver -> sender    W_REMOVE*   --remove-source-files only: each
 *                                     non-directory made whole or found
 *                                     up to date (its path below the
 *                                     root, the size and time it was
 *                                     sent with), then W_REMOVE_END; the
 *                                     sender removes them
 *
 * Under --files-from the trees are the listed names and the directories
 * on their way, each W_TREE_AT (placed by its path below DEST) instead
 * of W_TREE, then W_DIR_TIME* (times set again once all is in); in a
 * pull the names go first to the sender (W_FILES_FROM*, one each, as
 * files_from.c keeps them, then W_FILES_FROM_END).
 *
 * The first time the sender cannot read part of the source, W_IO_ERROR
 * goes before its next frame (a file's data aside).
 *
 * then W_END from the sender, and from the server W_OUTPUT (what it would
 * have printed) and W_DONE (its status) at the very end. The phases
 * alternate (one side writes while the other reads), so no side ever
 * waits on a full pipe the other is not reading.
 */
#ifndef SWEEP_WIRE_H
#define SWEEP_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rate.h"
#include "strbuf.h"

#define WIRE_VERSION 7u    /* 2: --delete-before, --files-from; 3: W_IO_ERROR;
                              4: W_REMOVE; 5: XATTRS_UNKNOWN, the manifest's
                              nanoseconds; 6: W_NAMES without the names the
                              sender's rules leave out; 7: W_IO_ERROR's kind */
#define WIRE_MAX_FRAME (8u << 20)   /* a frame longer than this is a bad peer */
#define WIRE_IO_LIST 0u  /* W_IO_ERROR: a directory or an entry not read */
#define WIRE_IO_DATA 1u  /* ... only a file's data not opened */
#define WIRE_CHUNK (128u << 10)     /* file data per frame */
#define FF_ALONE 1u  /* W_TREE_AT: the root alone, not what it holds */
#define FF_ROOT 2u   /* W_TREE_AT: DEST itself (path "") */
#define FF_ONE_LEVEL 4u /* W_TREE_AT: the root and what it holds, without
                           what its directories hold ("dir/" listed) */
#define FF_ABS 8u    /* W_TREE_AT: -R's absolute name: shown with its '/' */
/* W_DONE's flags: how the far end's run went */
#define DONE_PARTIAL 1u    /* rsync's 23 */
#define DONE_VANISHED 2u   /* 24 */
#define DONE_FILESELECT 4u /* 3: DEST could not be used */
#define DONE_FILEIO 8u     /* 11: DEST could not be made */
#define DONE_DEL_LIMIT 16u /* 25: --max-delete stopped deletions */

enum wire_type {
	W_TREE = 1, W_MANIFEST, W_MANIFEST_END, W_ENTRY, W_DATA, W_DATAZ, W_DATA_END,
	W_TREE_END, W_END, W_OUTPUT, W_DONE,
	W_NAMES,  /* before a directory's W_ENTRY (--delete): its source names */
	W_PREDELETE, W_PREDELETE_END, /* --delete-before's pass */
	W_TREE_AT,       /* --files-from: a tree placed by its path below DEST
	                    (flags, mode, path, implied directories sent again) */
	W_DIR_TIME,      /* --files-from: a directory's time, set at the end */
	W_FILES_FROM,    /* --files-from, a pull: the names, to the sender */
	W_FILES_FROM_END,
	W_IO_ERROR,      /* u8 kind (WIRE_IO_*): the sender could not read
	                    some of the source: from here on the receiver
	                    deletes nothing, or, for a file's data alone,
	                    nothing after the transfer (may come before any
	                    frame but a file's data) */
	W_REMOVE, W_REMOVE_END, /* --remove-source-files: what the sender removes */
};

struct wire {
	int in, out;
	bool compress;            /* -z: file data deflated */
	int compress_level;       /* ... at zlib's level (1-9) */
	int timeout_ms;           /* for the greeting, -1: none */
	const char *prog;         /* our name, for messages */
	const char *peer;         /* the peer as messages name it */
	struct strbuf obuf;       /* frames not yet written */
	char *ibuf;               /* bytes read, not yet taken */
	size_t ilen, ipos, icap;  /* icap grows to hold the longest frame */
	uint64_t sent, received;  /* bytes, for --stats */
	uint64_t list_bytes;      /* ... of them W_ENTRY frames, either way:
	                           * --stats' "File list size" */
	struct rate rate;         /* --bwlimit on what is written */
	void (*alive)(void *);    /* --timeout: told of every frame and byte moved */
	void *alive_arg;
	bool failed;              /* the connection broke (reported once) */
};

/* A frame's payload being read. bad: it ended early (a bad peer). */
struct wire_msg {
	enum wire_type type;
	const char *p, *end;
	bool bad;
};

/* A frame being built (its type, then the payload). */
struct wire_frame {
	struct strbuf b;
};

int wire_init(struct wire *w, int in, int out, const char *prog, const char *peer);
void wire_free(struct wire *w);

/* The greeting: ours sent, the peer's checked. Returns 0, or -1 after a
 * one-line message saying what the peer is not. */
int wire_greet(struct wire *w);

/* Build a frame: begin, put the fields, send (buffered). Each returns 0 or
 * -1 (ENOMEM, or the connection broke: reported once). */
void wire_begin(struct wire_frame *f, enum wire_type type);
void wire_u8(struct wire_frame *f, uint8_t v);
void wire_u32(struct wire_frame *f, uint32_t v);
void wire_u64(struct wire_frame *f, uint64_t v);
void wire_str(struct wire_frame *f, const char *s, size_t n);
int wire_send(struct wire *w, struct wire_frame *f);
/* A frame of file data (deflated under -z). */
int wire_send_data(struct wire *w, const char *buf, size_t n);
int wire_flush(struct wire *w);

/* The next frame into m (its payload stays valid until the next call;
 * buf holds inflated data). Returns 0, or -1 at the end of the stream or
 * on an error (reported). */
int wire_recv(struct wire *w, struct wire_msg *m, struct strbuf *buf);
uint8_t wire_get_u8(struct wire_msg *m);
uint32_t wire_get_u32(struct wire_msg *m);
uint64_t wire_get_u64(struct wire_msg *m);
/* A string: its bytes (not NUL-terminated) and length. */
const char *wire_get_str(struct wire_msg *m, size_t *n);
/* A string copied into sb, NUL-terminated; false for a bad one or one
 * holding a NUL. */
bool wire_get_cstr(struct wire_msg *m, struct strbuf *sb);
/* A protocol error: the peer sent what was not expected. Reported. */
int wire_bad(struct wire *w, const char *what);

#endif
