./spaa-hotspots tests/data/limits/overflow.spaa
