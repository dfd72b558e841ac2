./spaa-hotspots tests/data/bad/unknown_dso.spaa
