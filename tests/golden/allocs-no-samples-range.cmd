./spaa-allocs --begin=0 --end=10 tests/data/allocs_sites.spaa
