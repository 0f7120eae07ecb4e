/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * backupname.h: GNU's backup names (cp --backup, tar --backup): the kinds
 * of backup --backup=CONTROL and VERSION_CONTROL name, the suffix of a
 * simple one, and the name a backup of a file gets.
 */
#ifndef SWEEP_BACKUPNAME_H
#define SWEEP_BACKUPNAME_H

#include "strbuf.h"

enum backup_type {
	BACKUP_NONE = 0,
	BACKUP_SIMPLE,   /* name + suffix ("never", "simple") */
	BACKUP_NUMBERED, /* name.~N~ ("t", "numbered") */
	BACKUP_EXISTING, /* numbered where numbered ones exist ("nil", "existing") */
};

/* CONTROL's words and what each means, for argmatch(). */
extern const char *const backup_words[];
extern const int backup_values[];

/* The word that chooses the type: arg, else VERSION_CONTROL, else NULL
 * (GNU's default, "existing"). */
const char *backup_control(const char *arg);

/* SIMPLE_BACKUP_SUFFIX, when it is one GNU takes (not empty, no '/'),
 * else NULL ("~"). */
const char *backup_suffix_env(void);

/* The name a backup of name in dirfd gets under type (not BACKUP_NONE),
 * suffix (NULL, empty or holding a '/': "~", as GNU cp; GNU tar 1.34
 * would rename the file to itself, or into a directory) into out: for a
 * numbered one, one past the highest name.~N~ in dirfd. Returns 0 or -1
 * (ENOMEM). */
int backup_name(int dirfd, const char *name, enum backup_type type, const char *suffix,
                struct strbuf *out);

#endif
