./spaa-diff tests/data/nope.spaa tests/data/basic.spaa
