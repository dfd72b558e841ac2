./spaa-allocs --limit 2 --bins 4 tests/data/allocs_frees.spaa
