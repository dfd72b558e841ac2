./spaa-hotspots tests/data/bad/string_frame_id.spaa
