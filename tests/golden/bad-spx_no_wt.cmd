./spaa-hotspots tests/data/bad/spx_no_wt
