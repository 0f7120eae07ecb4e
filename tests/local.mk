# tests: cmocka unit tests of libsweep and tool-level tests.
