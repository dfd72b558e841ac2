./spaa-allocs --no-skip tests/data/allocs_sites.spaa
