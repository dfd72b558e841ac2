./spaa-allocs --skip '(' tests/data/allocs_sites.spaa
