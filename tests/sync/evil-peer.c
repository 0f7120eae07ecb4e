/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * evil-peer.c: a far end that speaks sweep-sync's protocol (src/sync/wire.h)
 * as a sender, and lies: run as "evil-peer SCENARIO" in place of
 * "sweep-sync --server --sender" (through --rsync-path), it greets, sends
 * one tree "src" with a root directory, reads the receiver's manifest, then
 * sends what SCENARIO names (see scenario(); "predelete REL": a directory
 * REL for --delete-before to delete in; "tree-at PATH" and "dir-time
 * PATH": under --files-from, a tree or a time at PATH below DEST, after
 * the names, before any W_TREE). The receiver must refuse it,
 * with a message, and write nothing outside its destination.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wire.h"

enum { K_DIR, K_DIR_POST, K_FILE, K_DATA };

static unsigned char frame[1 << 16];
static size_t flen;

static void put(const void *p, size_t n)
{
	memcpy(frame + flen, p, n);
	flen += n;
}

static void u8(unsigned v)
{
	unsigned char b = (unsigned char)v;
	put(&b, 1);
}

static void u32(uint32_t v)
{
	for (int i = 0; i < 4; i++)
		u8((v >> (8 * i)) & 0xff);
}

static void u64(uint64_t v)
{
	for (int i = 0; i < 8; i++)
		u8((unsigned)(v >> (8 * i)) & 0xff);
}

static void str(const char *s)
{
	u32((uint32_t)strlen(s));
	put(s, strlen(s));
}

static void begin(unsigned type)
{
	flen = 4;
	u8(type);
}

static void out(const void *p, size_t n)
{
	if (fwrite(p, 1, n, stdout) != n)
		exit(2);
}

static void send_frame(void)
{
	uint32_t n = (uint32_t)(flen - 4);
	for (int i = 0; i < 4; i++)
		frame[i] = (unsigned char)(n >> (8 * i));
	out(frame, flen);
}

static void entry(unsigned kind, unsigned flags, uint64_t id, uint64_t parent, int root,
                  const char *name, mode_t mode, const char *target)
{
	uint32_t owner = getenv("EVIL_UID") ? (uint32_t)atoi(getenv("EVIL_UID")) : 0;
	begin(W_ENTRY);
	u8(kind), u8(flags), u64(id), u64(parent), u32(root ? 0 : 1), str(name);
	u32(mode), u32(owner), u32(owner), u64(5), u64(1000000000), u32(0), u64(1000000000), u32(0);
	u64(0), u64(1), u64(id + 100), u64(1), str(target);
	u32(0); /* no extended attributes */
	str(getenv("EVIL_USER") ? getenv("EVIL_USER") : "");
	str(getenv("EVIL_GROUP") ? getenv("EVIL_GROUP") : "");
	send_frame();
}

static void data(const char *s)
{
	begin(W_DATA);
	put(s, strlen(s));
	send_frame();
	begin(W_DATA_END);
	u32(0);
	send_frame();
}

/* The end of the tree and of the run, all well (W_DONE, as a server's). */
static void end_run(void)
{
	begin(W_TREE_END);
	send_frame();
	begin(W_END);
	send_frame();
	begin(11);
	u8(0);
	send_frame();
}

/* What follows the root directory (id 1). */
static int scenario(const char *what)
{
	if (strcmp(what, "dotdot") == 0) {
		entry(K_DATA, 1, 0, 1, 0, "..", S_IFREG | 0644, "");
		data("evil\n");
	} else if (strcmp(what, "slash") == 0) {
		entry(K_DATA, 1, 0, 1, 0, "../../escaped", S_IFREG | 0644, "");
		data("evil\n");
	} else if (strcmp(what, "absolute") == 0) {
		/* a name that is a path of the receiver's own, outside DEST */
		static char name[4096];
		const char *out = getenv("EVIL_OUTSIDE");
		snprintf(name, sizeof(name), "%s/escaped", out ? out : "/tmp");
		entry(K_DATA, 1, 0, 1, 0, name, S_IFREG | 0644, "");
		data("evil\n");
	} else if (strcmp(what, "unknown-parent") == 0) {
		entry(K_DATA, 1, 0, 77, 0, "x", S_IFREG | 0644, "");
		data("evil\n");
	} else if (strcmp(what, "second-root") == 0) {
		entry(K_DIR, 0, 2, 0, 1, "", S_IFDIR | 0755, "");
	} else if (strcmp(what, "data-on-dir") == 0) {
		entry(K_DIR, 1, 2, 1, 0, "d", S_IFDIR | 0755, "");
	} else if (strcmp(what, "link-then-dir") == 0) {
		/* a link out, then a directory and a file by the same name */
		entry(K_FILE, 0, 0, 1, 0, "d", S_IFLNK | 0777, getenv("EVIL_OUTSIDE"));
		entry(K_DIR, 0, 2, 1, 0, "d", S_IFDIR | 0755, "");
		entry(K_DATA, 1, 0, 2, 0, "planted", S_IFREG | 0644, "");
		data("evil\n");
		entry(K_DIR_POST, 0, 2, 1, 0, "", S_IFDIR | 0755, "");
		entry(K_DIR_POST, 0, 1, 0, 1, "", S_IFDIR | 0755, "");
		end_run();
	} else if (strcmp(what, "owner") == 0) {
		/* a file owned by EVIL_UID, named EVIL_USER:EVIL_GROUP */
		entry(K_DATA, 1, 0, 1, 0, "owned", S_IFREG | 0644, "");
		data("mine\n");
		entry(K_DIR_POST, 0, 1, 0, 1, "", S_IFDIR | 0755, "");
		end_run();
	} else if (strcmp(what, "dir-id-twice") == 0) {
		entry(K_DIR, 0, 2, 1, 0, "a", S_IFDIR | 0755, "");
		entry(K_DIR, 0, 2, 1, 0, "b", S_IFDIR | 0755, "");
	} else if (strcmp(what, "root-kind") == 0) {
		return 3; /* main sends a file as the root of a directory's tree */
	} else if (strcmp(what, "two-trees") == 0) {
		/* one file's tree makes DEST a link out; a second tree would be
		 * placed through it */
		begin(W_TREE_END);
		send_frame();
		begin(W_TREE);
		u32(1), u32(S_IFDIR | 0755), str("y/");
		send_frame();
	} else if (strcmp(what, "plain") == 0) {
		/* a root (at $EVIL_ROOT, a path of the receiver's too) with one file */
		entry(K_DATA, 1, 0, 1, 0, "f", S_IFREG | 0644, "");
		data("plain\n");
		entry(K_DIR_POST, 0, 1, 0, 1, "", S_IFDIR | 0755, "");
		end_run();
	} else if (strcmp(what, "huge-frame") == 0) {
		out("\xff\xff\xff\x7f\x04", 5);
	} else if (strcmp(what, "short-entry") == 0) {
		begin(W_ENTRY);
		u8(K_DATA), u8(1), u64(0);
		send_frame();
	} else if (strcmp(what, "hang-up") == 0) {
		entry(K_DATA, 1, 0, 1, 0, "half", S_IFREG | 0644, "");
		begin(W_DATA);
		put("partial", 7);
		send_frame();
	} else {
		return 2;
	}
	return 0;
}

/* Frames read and passed over up to one of type last. Returns 0 or 2. */
static int skip_until(unsigned last)
{
	for (;;) {
		unsigned char h[5];
		if (fread(h, 1, 5, stdin) != 5)
			return 2;
		uint32_t n = h[0] | h[1] << 8 | h[2] << 16 | (uint32_t)h[3] << 24;
		for (uint32_t i = 1; i < n; i++)
			if (getchar() == EOF)
				return 2;
		if (h[4] == last)
			return 0;
	}
}

/* --files-from in a pull: after the names, a tree (W_TREE_AT) or a
 * directory's time (W_DIR_TIME) at PATH below DEST. */
static int files_from_scenario(const char *what, const char *path)
{
	if (skip_until(W_FILES_FROM_END))
		return 2;
	if (strcmp(what, "tree-at") == 0) {
		begin(W_TREE_AT);
		u8(0), u32(S_IFDIR | 0755), str(path), u32(0);
	} else {
		begin(W_DIR_TIME);
		str(path), u64(1000000000), u32(0);
	}
	send_frame();
	fflush(stdout);
	while (getchar() != EOF)
		;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	char greeting[14] = "SWEEPSYNC", peer[14];
	for (int i = 0; i < 4; i++) /* WIRE_VERSION, little-endian */
		greeting[10 + i] = (char)(WIRE_VERSION >> (8 * i));
	out(greeting, sizeof(greeting));
	fflush(stdout);
	if (fread(peer, 1, sizeof(peer), stdin) != sizeof(peer))
		return 2;
	if ((strcmp(argv[1], "tree-at") == 0 || strcmp(argv[1], "dir-time") == 0) && argc > 2)
		return files_from_scenario(argv[1], argv[2]);
	const char *root = getenv("EVIL_ROOT") ? getenv("EVIL_ROOT") : "src";
	int file_root = strcmp(argv[1], "two-trees") == 0;
	begin(W_TREE);
	u32(1), u32(file_root ? S_IFREG | 0644 : S_IFDIR | 0755), str(root);
	send_frame();
	fflush(stdout);
	if (skip_until(W_MANIFEST_END)) /* the manifest, up to its end */
		return 2;
	if (strcmp(argv[1], "predelete") == 0 && argc > 2) {
		/* --delete-before: a directory REL, where only "keep" is to stay */
		begin(W_NAMES);
		put("keep", 5);
		send_frame();
		begin(W_PREDELETE);
		str(argv[2]);
		send_frame();
		fflush(stdout);
		while (getchar() != EOF)
			;
		return 0;
	}
	if (file_root)
		entry(K_FILE, 0, 0, 0, 1, "", S_IFLNK | 0777, getenv("EVIL_OUTSIDE"));
	else if (strcmp(argv[1], "root-kind") == 0)
		entry(K_DATA, 0, 0, 0, 1, "", S_IFREG | 0644, "");
	else
		entry(K_DIR, 0, 1, 0, 1, "", S_IFDIR | 0755, "");
	int r = scenario(argv[1]);
	if (r == 3)
		r = 0;
	fflush(stdout);
	if (strcmp(argv[1], "hang-up") == 0)
		return 0; /* gone, half way through a file */
	/* leave the receiver to find what is wrong; it closes first */
	while (getchar() != EOF)
		;
	return r;
}
