./spaa-hotspots tests/data/bad/trailing_garbage.spaa.gz
