./spaa-hotspots tests/data/multi_event.spaa
