./spaa-hotspots tests/data/bad/spx_not_events
