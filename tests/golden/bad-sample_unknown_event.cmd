./spaa-hotspots tests/data/bad/sample_unknown_event.spaa
