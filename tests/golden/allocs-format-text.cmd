./spaa-allocs --format text --bins 4 tests/data/allocs_frees.spaa
