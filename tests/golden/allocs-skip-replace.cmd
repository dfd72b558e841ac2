./spaa-allocs --no-skip --skip '^je_' tests/data/allocs_sites.spaa
