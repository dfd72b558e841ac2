./spaa-hotspots tests/data/bad/spx_exit_without_entry
