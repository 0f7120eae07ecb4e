/*
 * main.c: sweep-find, GNU find's expressions over a walk in disk order.
 *
 * The command line becomes an expression tree (parse.c, primaries.c); the
 * walk (walk.c) evaluates it for each file as libsweep serves the tree, in
 * inode order rather than depth-first, so the same lines come out in
 * another order. Commands gathered by "-exec ... +" run at the end.
 * Module map: find.h.
 */
#include <locale.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "exec.h"
#include "fstype.h"
#include "find.h"
#include "output.h"
#include "walkenv.h"

static void init(struct find *f, struct diag *d)
{
	f->diag = d;
	f->opt.maxdepth = -1;
	f->opt.warnings = isatty(STDIN_FILENO);
	f->opt.order = SWEEP_ORDER_AUTO;
	walkenv_read(&f->opt.order, &f->opt.warm);
	clock_gettime(CLOCK_REALTIME, &f->opt.now);
	f->ls = (struct ls_widths){ .inode = 9, .blocks = 6, .nlink = 3, .owner = 8,
	                            .group = 8, .size = 8, .major = 3, .minor = 3 };
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	struct diag d;
	diag_init(&d, argv[0], QUOTE_LOCALE);
	struct find f = { 0 };
	init(&f, &d);
	int status = out_get(&f, NULL) ? find_parse(&f, argc, argv) : 1;
	if (status < 0) {
		status = 0;
		find_walk(&f);
		exec_flush_all(&f);
	}
	out_close_all(&f);
	if (d.status > status)
		status = d.status;
	expr_free(f.expr);
	idcache_free(&f.ids);
	fstype_free(f.fstypes);
	sb_free(&f.scratch);
	diag_free(&d);
	return status;
}
