./spaa-hotspots --output-progress --limit 1 tests/data/basic.spaa
