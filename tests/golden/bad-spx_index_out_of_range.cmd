./spaa-hotspots tests/data/bad/spx_index_out_of_range
