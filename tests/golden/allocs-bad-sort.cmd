./spaa-allocs --sort size tests/data/allocs_sites.spaa
