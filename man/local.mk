# SPDX-License-Identifier: BSD-2-Clause
# man: libsweep(3); each tool's page is listed in the tool's own fragment.
dist_man_MANS += man/libsweep.3
