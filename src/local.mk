# SPDX-License-Identifier: BSD-2-Clause
# src: the tools. Each tool keeps its program, man page and tests in its own
# fragment; src/common holds what more than one tool needs. find and du
# come first: their GNU comparisons are the suite's longest tests, and make
# check starts tests in this order (last, they ran alone on one core).
include $(srcdir)/src/common/local.mk
include $(srcdir)/src/copy/local.mk
include $(srcdir)/src/find/local.mk
include $(srcdir)/src/du/local.mk
include $(srcdir)/src/cp/local.mk
include $(srcdir)/src/sync/local.mk
include $(srcdir)/src/tar/local.mk
