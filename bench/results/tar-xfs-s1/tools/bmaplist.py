#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# bmaplist.py DIRS OUT: run in a (warm) mount: the directories of the list
# DIRS in the order of their first block (XFS_IOC_GETBMAPX, through
# xfs_io's bmap), those without a block (short form, in the inode) after
# them by inode.
import os
import subprocess
import sys

keyed, inline = [], 0
for d in open(sys.argv[1]).read().splitlines():
    out = subprocess.run(['xfs_io', '-r', '-c', 'bmap', d],
                         capture_output=True, text=True).stdout.splitlines()
    block = None
    for line in out[1:]:
        f = line.split()
        if len(f) >= 3 and f[2] != 'hole':
            block = int(f[2].split('..')[0])
            break
    if block is None:
        inline += 1
        block = (1 << 62) | os.lstat(d).st_ino
    keyed.append((block, d))
with open(sys.argv[2], 'w') as out:
    out.write(''.join(d + '\n' for _, d in sorted(keyed)))
print(len(keyed), 'directories,', inline, 'without a block of their own')
