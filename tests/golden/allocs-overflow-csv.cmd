./spaa-allocs --format csv tests/data/overflow_alloc.spaa
