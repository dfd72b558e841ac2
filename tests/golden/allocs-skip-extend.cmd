./spaa-allocs --skip '^parse$' tests/data/allocs_sites.spaa
