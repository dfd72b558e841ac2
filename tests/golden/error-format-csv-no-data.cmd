./spaa-allocs --format csv tests/data/basic.spaa
