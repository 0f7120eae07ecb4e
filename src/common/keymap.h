/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * keymap.h: a hash map from a pair of 64-bit numbers to a 64-bit value.
 * The pair is (st_dev, st_ino) for "have I seen this file", or (id, 0) for
 * libsweep's directory ids.
 */
#ifndef SWEEP_KEYMAP_H
#define SWEEP_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct keymap_slot {
	uint64_t a, b;
	uint64_t value;
	bool used;
};

struct keymap {
	struct keymap_slot *slots;
	size_t n, cap; /* cap: 0 or a power of two */
};

#define KEYMAP_INIT { NULL, 0, 0 }

/* The value stored for (a, b), or NULL. The pointer stays valid until the
 * next insertion or removal. */
uint64_t *keymap_get(const struct keymap *m, uint64_t a, uint64_t b);

/* Store value for (a, b), replacing any. Returns 0, or -1 (ENOMEM). */
int keymap_put(struct keymap *m, uint64_t a, uint64_t b, uint64_t value);

/* Forget (a, b); nothing happens when it is absent. */
void keymap_del(struct keymap *m, uint64_t a, uint64_t b);

void keymap_free(struct keymap *m);

/* A key for the strings s1 then s2 (names): two 64-bit hashes of them
 * (FNV-1a and djb2), which the callers take as the names themselves (a
 * clash of both: about one in 2^128). */
void keymap_str_key(const char *s1, const char *s2, uint64_t *a, uint64_t *b);

#endif
