./spaa-hotspots tests/data/bad/duplicate_frame_id.spaa
