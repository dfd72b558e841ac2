./spaa-diff tests/data/basic.spaa tests/data/diff_doubled.spaa
