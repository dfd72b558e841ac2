./spaa-hotspots tests/data/bad/empty_object.spaa
