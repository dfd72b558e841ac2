./spaa-hotspots tests/data/bad/spx_unknown_section
