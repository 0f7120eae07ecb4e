/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * chown.c: --chown=USER:GROUP, rsync's: every entry owned by USER and in
 * GROUP where it lands, names (or numbers) looked up by the receiving end
 * (here, or the far end of a push), as rsync's --usermap "*:USER" and
 * --groupmap "*:GROUP" are. A part left empty ("USER", ":GROUP") maps
 * nothing; a part given means -o or -g. A name the receiver does not know
 * is said once and maps nothing, the run going on (rsync's words).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include "sync.h"

int chown_option(struct sync *s, const char *arg)
{
	const char *colon = strchr(arg, ':');
	free(s->chown_user);
	free(s->chown_group);
	s->chown_user = strndup(arg, colon ? (size_t)(colon - arg) : strlen(arg));
	s->chown_group = strdup(colon ? colon + 1 : "");
	if (!s->chown_user || !s->chown_group) {
		diag_error(s->diag, ENOMEM, "--chown");
		return -1;
	}
	s->owner |= *s->chown_user != '\0';
	s->group |= *s->chown_group != '\0';
	s->chown_resolved = false;
	return 0;
}

/* The id a part names (a number, or a name known here), or false. */
static bool id_of(const char *part, bool group, unsigned *id)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(part, &end, 10);
	if (*part && !*end && !errno && v <= 0xffffffffUL) {
		*id = (unsigned)v;
		return true;
	}
	const struct passwd *pw = group ? NULL : getpwnam(part);
	const struct group *gr = group ? getgrnam(part) : NULL;
	if (pw)
		*id = pw->pw_uid;
	if (gr)
		*id = gr->gr_gid;
	return pw || gr;
}

/* The ids, looked up once, where the entries land. */
static void resolve(struct sync *s)
{
	if (s->chown_resolved)
		return;
	s->chown_resolved = true;
	unsigned id;
	s->chown_uid_on = *s->chown_user && id_of(s->chown_user, false, &id);
	/* said by the receiver only */
	bool say = !s->sender_side;
	if (s->chown_uid_on)
		s->chown_uid = (uid_t)id;
	else if (*s->chown_user && say)
		fprintf(stderr, "Unknown --usermap name on receiver: %s\n", s->chown_user);
	s->chown_gid_on = *s->chown_group && id_of(s->chown_group, true, &id);
	if (s->chown_gid_on)
		s->chown_gid = (gid_t)id;
	else if (*s->chown_group && say)
		fprintf(stderr, "Unknown --groupmap name on receiver: %s\n", s->chown_group);
}

void chown_apply(struct sync *s, struct stat *st)
{
	if (!s->chown_user)
		return;
	resolve(s);
	if (s->chown_uid_on)
		st->st_uid = s->chown_uid;
	if (s->chown_gid_on)
		st->st_gid = s->chown_gid;
}

void chown_free(struct sync *s)
{
	free(s->chown_user);
	free(s->chown_group);
}
