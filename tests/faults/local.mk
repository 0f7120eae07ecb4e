# tests/faults: what the tools do when the machine fails them: a full or
# failing device, low descriptor and address-space limits, damaged and
# truncated archives, files that change under the walk. For each: nothing
# lost in silence (a file is whole, absent, or named in an error), GNU's
# exit status, the rest of the work done. One script per fault; each adds
# itself here.
FAULT_TESTS = tests/faults/nofile.sh tests/faults/addrspace.sh
TESTS += $(FAULT_TESTS)
EXTRA_DIST += $(FAULT_TESTS) tests/faults/tree.sh
