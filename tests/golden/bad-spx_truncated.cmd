./spaa-hotspots tests/data/bad/spx_truncated
