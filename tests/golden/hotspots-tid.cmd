./spaa-hotspots --tid 101 tests/data/basic.spaa
