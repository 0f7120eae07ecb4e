#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# lists.py OUT: run in the mount: OUT.dirs (every directory of ./tree, in
# inode order) and OUT.files (every other name, in inode order), for run.py.
# (FIEMAP refuses xfs directories: EOPNOTSUPP.)
import os
import sys

dirs, files = [], []
for root, _, names in os.walk('tree'):
    dirs.append((os.lstat(root).st_ino, root))
    for n in names:
        p = os.path.join(root, n)
        files.append((os.lstat(p).st_ino, p))
for suffix, items in (('dirs', dirs), ('files', files)):
    with open(sys.argv[1] + '.' + suffix, 'w') as out:
        out.write(''.join(p + '\n' for _, p in sorted(items)))
print(len(dirs), 'directories', len(files), 'other names')
