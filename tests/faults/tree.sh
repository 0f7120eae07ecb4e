# SPDX-License-Identifier: BSD-2-Clause
# tests/faults/tree.sh: the tree the limit tests walk, sourced after
# tests/lib.sh. make_limit_tree DIR makes: 300 directories of small files
# three levels down, a chain of 40 nested directories, a directory whose
# files each have a second name beside them (hard links are opened apart
# from the files announced ahead), and empty files. Then it writes the data
# out, so that evict_tree can drop the tree's own pages from the page cache
# (posix_fadvise, no global cache drop): the data phase then reads them in
# disk order, with files opened ahead.
make_limit_tree() {
	python3 - "$1" <<'PY' || fail "cannot build the tree"
import os, sys
root = sys.argv[1]
for i in range(300):
    d = os.path.join(root, "d%d" % (i % 10), "s%d" % (i % 37), "x%d" % i)
    os.makedirs(d)
    for j in range(8):
        with open(os.path.join(d, "f%d" % j), "w") as f:
            f.write("data %d %d\n" % (i, j) * (1 + (i * j) % 300))
    open(os.path.join(d, "empty"), "w").close()
d = root
for k in range(40):
    d = os.path.join(d, "level%02d" % k)
    os.mkdir(d)
    with open(os.path.join(d, "f"), "w") as f:
        f.write("deep %d\n" % k)
links = os.path.join(root, "links")
os.mkdir(links)
for i in range(200):
    for name in ("f%d" % i, "s%d" % i):
        with open(os.path.join(links, name), "w") as f:
            f.write("%s\n" % name)
    os.link(os.path.join(links, "f%d" % i), os.path.join(links, "l%d" % i))
PY
	sync
}

# evict_tree DIR: drop DIR's file pages from the page cache
evict_tree() {
	python3 - "$1" <<'PY'
import os, sys
for top, dirs, files in os.walk(sys.argv[1]):
    for name in files:
        fd = os.open(os.path.join(top, name), os.O_RDONLY | os.O_NOFOLLOW)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}
