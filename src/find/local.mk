# sweep-find: program, man page and tests.
