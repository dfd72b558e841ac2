./spaa-hotspots tests/data/bad/spx_huge_value
