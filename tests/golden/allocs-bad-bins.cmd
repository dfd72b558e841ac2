./spaa-allocs --bins 0 tests/data/allocs_sites.spaa
