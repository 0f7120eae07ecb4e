# SPDX-License-Identifier: BSD-2-Clause
# bench: the emulated disk, aging and the elevator matrix (bench/README.md).
# hddsim needs libfuse3; without it the bench is not built and its smoke test
# skips.
if HAVE_FUSE3
noinst_PROGRAMS += bench/hddsim/hddsim
endif
bench_hddsim_hddsim_SOURCES = bench/hddsim/hddsim.h bench/hddsim/main.c \
	bench/hddsim/params.c bench/hddsim/geom.c bench/hddsim/model.c \
	bench/hddsim/arm.c bench/hddsim/flat.c bench/hddsim/stats.c bench/hddsim/predict.c \
	bench/hddsim/fs.c
bench_hddsim_hddsim_CPPFLAGS = $(AM_CPPFLAGS) -DFUSE_USE_VERSION=314 $(FUSE3_CFLAGS)
bench_hddsim_hddsim_LDADD = $(FUSE3_LIBS) -lm

TESTS += bench/smoke.sh
EXTRA_DIST += bench/smoke.sh bench/README.md bench/lib.sh bench/run bench/age \
	bench/hddsim-validate bench/report bench/compare bench/shape bench/ssh-sync bench/write-probe \
	bench/results
