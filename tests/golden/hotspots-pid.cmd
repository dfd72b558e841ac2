./spaa-hotspots --pid=100 tests/data/alloc.spaa
