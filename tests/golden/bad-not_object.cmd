./spaa-hotspots tests/data/bad/not_object.spaa
