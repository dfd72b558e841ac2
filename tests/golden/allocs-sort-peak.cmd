./spaa-allocs --sort peak tests/data/allocs_sites.spaa
