./spaa-hotspots tests/data/bad/empty.spaa
