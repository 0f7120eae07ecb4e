# SPDX-License-Identifier: BSD-2-Clause
# common: helpers shared by the tools (messages, exit status, quoting,
# exclusion patterns, id and key maps, human-readable and suffixed sizes, the walk's
# environment variables, a rate limit, GNU's backup names, dates, a
# descriptor's /proc name).
noinst_LTLIBRARIES += src/common/libcommon.la
src_common_libcommon_la_SOURCES = \
	src/common/argmatch.c src/common/argmatch.h \
	src/common/backupname.c src/common/backupname.h \
	src/common/diag.c src/common/diag.h \
	src/common/escape.c src/common/escape.h \
	src/common/exclude.c src/common/exclude.h \
	src/common/human.c src/common/human.h \
	src/common/idcache.c src/common/idcache.h \
	src/common/keymap.c src/common/keymap.h \
	src/common/quote.c src/common/quote.h \
	src/common/strbuf.c src/common/strbuf.h \
	src/common/walkenv.c src/common/walkenv.h \
	src/common/progress.c src/common/progress.h \
	src/common/scaled.c src/common/scaled.h \
	src/common/modechange.c src/common/modechange.h \
	src/common/permstr.c src/common/permstr.h \
	src/common/rate.c src/common/rate.h \
	src/common/datetime.c src/common/datetime.h \
	src/common/procfd.c src/common/procfd.h
