# sweep-du: program, man page and tests.
