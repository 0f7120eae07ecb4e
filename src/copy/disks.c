/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * disks.c: whether two file systems lie on disks of their own, each with
 * its own arm: then what the copy does on one need not wait for the other
 * (a batch written behind the reading, a destination walked beside the
 * source). Sure only where sysfs names two whole disks, neither made of
 * others: a loop device's file, or a device mapper or md volume's parts,
 * may lie on any disk, the source's too.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "copy.h"

/* Whether sysfs says dev's disk takes more than one file system's share:
 * a loop device, or one made of others. */
static bool stacked(dev_t disk)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/loop", major(disk), minor(disk));
	if (access(path, F_OK) == 0)
		return true;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/slaves", major(disk), minor(disk));
	DIR *d = opendir(path);
	bool some = false;
	for (struct dirent *e; d && !some && (e = readdir(d));)
		some = e->d_name[0] != '.';
	if (d)
		closedir(d);
	return some;
}

bool copy_disks_apart(dev_t a, dev_t b)
{
	dev_t da = sweep_device_disk(a), db = sweep_device_disk(b);
	return da && db && da != db && !stacked(da) && !stacked(db);
}
