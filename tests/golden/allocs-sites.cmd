./spaa-allocs tests/data/allocs_sites.spaa
