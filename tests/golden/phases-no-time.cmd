./spaa-phases tests/data/basic.spaa
