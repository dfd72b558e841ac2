./spaa-hotspots tests/data/bad/spx_orphan_events
