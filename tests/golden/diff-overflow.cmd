./spaa-diff tests/data/overflow.spaa tests/data/overflow.spaa
