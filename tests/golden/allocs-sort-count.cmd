./spaa-allocs --sort=count tests/data/allocs_sites.spaa
