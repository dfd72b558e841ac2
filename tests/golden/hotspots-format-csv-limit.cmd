./spaa-hotspots --format csv --limit 1 tests/data/basic.spaa
