./spaa-allocs --test-compatibility tests/data/basic.spaa
