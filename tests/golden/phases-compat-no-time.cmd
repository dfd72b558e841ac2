./spaa-phases --test-compatibility tests/data/basic.spaa
