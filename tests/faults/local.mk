# SPDX-License-Identifier: BSD-2-Clause
# tests/faults: what the tools do when the machine fails them: a full or
# failing device, low descriptor and address-space limits, damaged and
# truncated archives, files that change under the walk. For each: nothing
# lost in silence (a file is whole, absent, or named in an error), GNU's
# exit status, the rest of the work done. One script per fault; each adds
# itself here.
FAULT_TESTS = \
	tests/faults/extract.sh \
	tests/faults/eio.sh \
	tests/faults/enomem.sh \
	tests/faults/changed-type.sh \
	tests/faults/readonly.sh \
	tests/faults/unwritable.sh \
	tests/faults/cp-enospc.sh \
	tests/faults/cp-cut.sh \
	tests/faults/sync-enospc.sh \
	tests/faults/sync-eio.sh \
	tests/faults/nofile.sh \
	tests/faults/addrspace.sh \
	tests/faults/memcg.sh
TESTS += $(FAULT_TESTS)
EXTRA_DIST += $(FAULT_TESTS)
EXTRA_DIST += tests/faults/eio-shim.c
EXTRA_DIST += tests/faults/enomem-shim.c
EXTRA_DIST += tests/faults/swap-on-open.c
EXTRA_DIST += tests/faults/extract-both.sh
EXTRA_DIST += tests/faults/tree.sh
