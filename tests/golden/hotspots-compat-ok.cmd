./spaa-hotspots --test-compatibility tests/data/basic.spaa
