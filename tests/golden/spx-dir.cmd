./spaa-hotspots --limit 5 tests/data/spx
