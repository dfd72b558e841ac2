./spaa-allocs tests/data/overflow_alloc.spaa
