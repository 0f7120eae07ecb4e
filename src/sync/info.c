/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * info.c: rsync's --info, what is said, flag by flag, each at a level
 * (OPT or OPT1, OPT2...; OPT0 silences; ALL, ALLN and NONE all of them;
 * HELP the table). -v gives its tiers' flags (rsync's table: NONREG at
 * any verbosity, NAME, DEL, STATS... at -v, NAME2, REMOVE, SKIP... at
 * -vv), --stats STATS2 (3 with -vv), --progress NAME (unless set) with
 * FLIST2 and PROGRESS; a flag named by --info keeps the level given, in
 * whatever order the options came. -q silences all. Words are rsync's,
 * in any case; a level above 4 is 4.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sync.h"

#define INFO_MAX_LEVEL 4

static const struct {
	const char *name, *help;
} words[INFO_N] = {
	[INFO_BACKUP] = { "BACKUP", "Mention files backed up" },
	[INFO_COPY] = { "COPY", "Mention files copied locally on the receiving side" },
	[INFO_DEL] = { "DEL", "Mention deletions on the receiving side" },
	[INFO_FLIST] = { "FLIST", "Mention file-list receiving/sending (levels 1-2)" },
	[INFO_MISC] = { "MISC", "Mention miscellaneous information (levels 1-2)" },
	[INFO_MOUNT] = { "MOUNT", "Mention mounts that were found or skipped" },
	[INFO_NAME] = { "NAME", "Mention 1) updated file/dir names, 2) unchanged names" },
	[INFO_NONREG] = { "NONREG", "Mention skipped non-regular files (default 1, 0 disables)" },
	[INFO_PROGRESS] = { "PROGRESS", "Mention 1) per-file progress or 2) total transfer progress" },
	[INFO_REMOVE] = { "REMOVE", "Mention files removed on the sending side" },
	[INFO_SKIP] = { "SKIP", "Mention files skipped due to transfer overrides (levels 1-2)" },
	[INFO_STATS] = { "STATS", "Mention statistics at end of run (levels 1-3)" },
	[INFO_SYMSAFE] = { "SYMSAFE", "Mention symlinks that are unsafe" },
};

/* what each -v adds, from none */
static const char *const tiers[] = {
	"NONREG",
	"COPY,DEL,FLIST,MISC,NAME,STATS,SYMSAFE",
	"BACKUP,MISC2,MOUNT,NAME2,REMOVE,SKIP",
};

static void help(void)
{
	static const char fmt[] = "%-10s %s\n";
	printf("Use OPT or OPT1 for level 1 output, OPT2 for level 2, etc.; OPT0 silences.\n\n");
	for (int i = 0; i < INFO_N; i++)
		printf(fmt, words[i].name, words[i].help);
	printf("\n");
	printf(fmt, "ALL", "Set all --info options (e.g. all4)");
	printf(fmt, "NONE", "Silence all --info options (same as all0)");
	printf(fmt, "HELP", "Output this help message");
	printf("\nOptions added at each level of verbosity:\n");
	for (size_t j = 0; j < sizeof(tiers) / sizeof(tiers[0]); j++)
		printf("%zu) %s\n", j, tiers[j]);
}

/* Set flag i to level, unless the user's level stands and this is not. */
static void set(struct sync *s, int i, int level, bool user)
{
	if (user || !s->info_user[i]) {
		s->info[i] = (signed char)level;
		s->info_user[i] |= user;
	}
}

/* The words of list, comma-separated (user: given by --info). Returns 0,
 * 1 when HELP was said, -1 for a word that names nothing (said). */
static int apply(struct sync *s, const char *list, bool user)
{
	for (const char *w = list; *w;) {
		size_t len = strcspn(w, ","), name = len;
		const char *next = w + len + (w[len] == ',');
		/* (a word of digits alone is a name: rsync's) */
		while (!isdigit((unsigned char)w[0]) && name && isdigit((unsigned char)w[name - 1]))
			name--;
		int level = name < len ? atoi(w + name) : 1;
		if (level > INFO_MAX_LEVEL)
			level = INFO_MAX_LEVEL;
		bool all = name == 3 && strncasecmp(w, "all", 3) == 0;
		if (name == 4 && strncasecmp(w, "help", 4) == 0) {
			help();
			return 1;
		}
		if (name == 4 && strncasecmp(w, "none", 4) == 0)
			all = true, level = 0;
		int hit = -1;
		for (int i = 0; i < INFO_N && len; i++)
			if (all || (strlen(words[i].name) == name && strncasecmp(w, words[i].name, name) == 0))
				set(s, i, level, user), hit = i;
		if (len && hit < 0) {
			fprintf(stderr, "Unknown --info item: \"%.*s\"\n", (int)len, w);
			return -1;
		}
		w = next;
	}
	return 0;
}

int info_option(struct sync *s, const char *arg)
{
	int r = apply(s, arg, true);
	if (r == 1)
		s->info_help = true;
	/* (the far end is told the levels the near end ends with) */
	return r < 0 ? -1 : 0;
}

void info_settle(struct sync *s)
{
	for (int j = 0; j <= s->verbose && j < (int)(sizeof(tiers) / sizeof(tiers[0])); j++)
		(void)apply(s, tiers[j], false);
	if (s->stats)
		(void)apply(s, s->verbose > 1 ? "stats3" : "stats2", false);
	/* (a far end's names come from the levels it is told) */
	if (s->progress_given && !s->server) {
		if (s->info[INFO_NAME] == 0)
			(void)apply(s, "name", false);
		(void)apply(s, "FLIST2,PROGRESS", false);
	}
	if (s->quiet)
		memset(s->info, 0, sizeof(s->info));
}

int info_server_option(const struct sync *s, struct strbuf *sb)
{
	if (sb_addstr(sb, "--info=") < 0)
		return -1;
	for (int i = 0; i < INFO_N; i++)
		if (sb_printf(sb, "%s%s%d", i ? "," : "", words[i].name, s->info[i]) < 0)
			return -1;
	return 0;
}
