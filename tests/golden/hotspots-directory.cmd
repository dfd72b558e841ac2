./spaa-hotspots tests/data/dir
