# bench: the emulated disk, aging and the elevator matrix (bench/README.md).
