./spaa-allocs --bins 4 tests/data/allocs_frees.spaa
