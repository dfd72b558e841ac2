./spaa-hotspots tests/data/bad/infinity_weight.spaa
