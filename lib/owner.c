/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * owner.c: whether this process started a thread, for the code that hands
 * work to the helper threads and the announcer, which a child of fork()
 * does not have. Comparing getpid() asked the kernel two times a file in a
 * cold copy (2-3 us each on a virtual machine, where a system call exits to
 * the host): instead a page marked MADV_WIPEONFORK (Linux 4.14) holds a
 * one, which a child finds zero. Where the page cannot be had, getpid();
 * also where madvise() takes any advice without a word (qemu-user before
 * 8.0 does, and a child there would find the one and join threads it does
 * not have): the page is trusted only when madvise() refuses nonsense.
 */
#include <sys/mman.h>
#include <unistd.h>
#include "owner.h"

void sw_owner_init(struct sw_owner *o)
{
	o->pid = getpid();
	o->mark = NULL;
#ifdef MADV_WIPEONFORK
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return;
	void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	               -1, 0);
	if (p == MAP_FAILED)
		return;
	if (madvise(p, (size_t)page, -1) == 0 || madvise(p, (size_t)page, MADV_WIPEONFORK) != 0) {
		munmap(p, (size_t)page);
		return;
	}
	o->mark = p;
	o->mark[0] = 1;
#endif
}

bool sw_owner_here(const struct sw_owner *o)
{
	return o->mark ? o->mark[0] != 0 : o->pid == getpid();
}

void sw_owner_fini(struct sw_owner *o)
{
	if (o->mark)
		munmap((void *)o->mark, (size_t)sysconf(_SC_PAGESIZE));
	o->mark = NULL;
}
