./spaa-hotspots tests/data/bad/empty_frames.spaa
