/*
 * exec.h: commands run by -exec, -execdir, -ok and -okdir (exec.c).
 */
#ifndef SWEEP_FIND_EXEC_H
#define SWEEP_FIND_EXEC_H

#include "find.h"

struct exec {
	struct exec *next;     /* every exec of the expression, in f->execs */
	const char *name;      /* "-exec", "-execdir"... */
	char **tmpl;           /* the command as written, {} included */
	int ntmpl;
	int brace;             /* "+" form: index of the {} in tmpl, else -1 */
	bool dir, ok;
	/* "+" form: names gathered so far */
	char **names;
	size_t nnames, capnames, bytes;
	int batch_fd;          /* -execdir +: the batch's directory, or -1 */
	uint64_t batch_dir;    /* -execdir +: which directory that is */
};

/* Run what is still gathered in every "+" command. */
void exec_flush_all(struct find *f);

#endif
