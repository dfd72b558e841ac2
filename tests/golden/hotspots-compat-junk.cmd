./spaa-hotspots --test-compatibility tests/data/bad/junk.spaa
