./spaa-hotspots tests/data/bad/unknown_frame.spaa
