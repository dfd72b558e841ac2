./spaa-hotspots tests/data/bad/unknown_event.spaa
