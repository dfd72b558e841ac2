./spaa-hotspots tests/data/bad/lone_surrogate.spaa
