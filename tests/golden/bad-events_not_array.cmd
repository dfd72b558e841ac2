./spaa-hotspots tests/data/bad/events_not_array.spaa
