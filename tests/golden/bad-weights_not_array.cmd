./spaa-hotspots tests/data/bad/weights_not_array.spaa
