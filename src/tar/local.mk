# sweep-tar: program, man page and tests.
