./spaa-hotspots tests/data/bad/no_profiles
