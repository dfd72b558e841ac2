./spaa-allocs --format csv tests/data/limits/overflow_alloc.spaa
