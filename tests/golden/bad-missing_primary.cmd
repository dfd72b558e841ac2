./spaa-hotspots tests/data/bad/missing_primary.spaa
