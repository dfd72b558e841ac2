./spaa-hotspots tests/data/bad/negative_weight.spaa
