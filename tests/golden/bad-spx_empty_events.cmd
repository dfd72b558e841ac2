./spaa-hotspots tests/data/bad/spx_empty_events
