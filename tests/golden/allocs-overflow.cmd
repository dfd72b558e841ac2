./spaa-allocs tests/data/limits/overflow_alloc.spaa
