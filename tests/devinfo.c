/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * devinfo.c: what libsweep says of the block device under each PATH given,
 * one line each: "ROTATIONAL MAJOR:MINOR" (the whole disk; 0:0 unknown),
 * for tests/device.sh to compare with lsblk.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "sweep.h"

int main(int argc, char **argv)
{
	int status = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			status = 1;
			continue;
		}
		dev_t disk = sweep_device_disk(st.st_dev);
		printf("%d %u:%u\n", sweep_device_rotational(st.st_dev), major(disk), minor(disk));
	}
	return status;
}
