./spaa-hotspots tests/data/bad/float_weight.spaa
