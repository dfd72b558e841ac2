./spaa-hotspots tests/data/bad/frames_not_array.spaa
