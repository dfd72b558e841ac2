./spaa-hotspots tests/data/bad/spx_entry_flag
