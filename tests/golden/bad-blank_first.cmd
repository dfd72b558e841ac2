./spaa-hotspots tests/data/bad/blank_first.spaa
