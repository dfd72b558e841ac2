./spaa-phases --bnis 4 tests/data/basic.spaa
