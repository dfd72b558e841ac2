./spaa-hotspots tests/data/bad/spx_negative_index
