./spaa-hotspots tests/data/bad/float_frame_id.spaa
