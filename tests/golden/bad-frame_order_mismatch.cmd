./spaa-hotspots tests/data/bad/frame_order_mismatch.spaa
