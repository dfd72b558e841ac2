./spaa-allocs --begin 1010 --end 1090 tests/data/allocs_frees.spaa
