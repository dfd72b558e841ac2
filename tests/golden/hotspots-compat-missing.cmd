./spaa-hotspots --test-compatibility tests/data/nope.spaa
