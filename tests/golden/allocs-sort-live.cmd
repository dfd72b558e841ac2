./spaa-allocs --sort live tests/data/allocs_sites.spaa
