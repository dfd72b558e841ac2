./spaa-hotspots tests/data/bad/negative_frame_id.spaa
