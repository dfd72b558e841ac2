./spaa-diff --test-compatibility tests/data/bad/junk.spaa
