#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# run.py K LIST...: read each directory (getdents, no stat) or lstat each
# other name of the LISTs (lists.py's OUT.dirs, OUT.files, or bmaplist.py's),
# in the list's order, K at a time (K threads taking the next in turn).
import os
import sys
from concurrent.futures import ThreadPoolExecutor


def touch(path):
    try:
        if path.endswith('\0'):
            os.listdir(path[:-1])
        else:
            os.lstat(path)
    except OSError:
        pass


k = int(sys.argv[1])
for name in sys.argv[2:]:
    is_dirs = not name.endswith('.files')
    items = [p + '\0' if is_dirs else p for p in open(name).read().splitlines()]
    if k == 1:
        for p in items:
            touch(p)
    else:
        with ThreadPoolExecutor(k) as pool:
            list(pool.map(touch, items, chunksize=1))
