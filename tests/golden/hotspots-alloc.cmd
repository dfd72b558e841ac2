./spaa-hotspots tests/data/alloc.spaa
