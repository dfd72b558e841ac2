./spaa-hotspots tests/data/bad/spx_bad_value
