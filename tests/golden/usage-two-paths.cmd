./spaa-hotspots tests/data/basic.spaa tests/data/alloc.spaa
