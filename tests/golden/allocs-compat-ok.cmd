./spaa-allocs --test-compatibility tests/data/allocs_frees.spaa
