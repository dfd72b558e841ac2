./spaa-hotspots --format text --limit 2 tests/data/basic.spaa
