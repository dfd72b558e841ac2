./spaa-hotspots tests/data/bad/nan_weight.spaa
