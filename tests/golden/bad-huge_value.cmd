./spaa-hotspots tests/data/bad/huge_value.spaa
