./spaa-allocs --begin 1000 --end 1499 --bins 2 tests/data/allocs_frees.spaa
