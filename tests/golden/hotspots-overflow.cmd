./spaa-hotspots tests/data/overflow.spaa
