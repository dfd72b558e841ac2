./spaa-diff tests/data/basic.spaa tests/data/bad/junk.spaa
