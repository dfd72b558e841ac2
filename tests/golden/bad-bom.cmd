./spaa-hotspots tests/data/bad/bom.spaa
