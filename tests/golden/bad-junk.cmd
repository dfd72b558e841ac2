./spaa-hotspots tests/data/bad/junk.spaa
