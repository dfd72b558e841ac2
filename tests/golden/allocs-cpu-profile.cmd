./spaa-allocs tests/data/basic.spaa
