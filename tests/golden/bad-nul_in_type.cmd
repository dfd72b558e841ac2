./spaa-hotspots tests/data/bad/nul_in_type.spaa
