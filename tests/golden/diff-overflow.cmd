./spaa-diff tests/data/limits/overflow.spaa tests/data/limits/overflow.spaa
