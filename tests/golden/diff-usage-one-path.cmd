./spaa-diff tests/data/basic.spaa
