./spaa-hotspots tests/data/bad/no_type.spaa
