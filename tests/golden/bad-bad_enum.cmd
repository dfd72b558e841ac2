./spaa-hotspots tests/data/bad/bad_enum.spaa
