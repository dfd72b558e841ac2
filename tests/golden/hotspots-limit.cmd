./spaa-hotspots --limit 2 tests/data/basic.spaa
