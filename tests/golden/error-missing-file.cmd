./spaa-hotspots tests/data/nope.spaa
