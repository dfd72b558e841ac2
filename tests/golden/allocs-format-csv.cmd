./spaa-allocs --format csv --bins 4 tests/data/allocs_frees.spaa
