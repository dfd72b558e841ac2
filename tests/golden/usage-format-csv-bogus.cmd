./spaa-hotspots --format=csv --bogus tests/data/basic.spaa
