./spaa-hotspots tests/data/bad/v8_unknown_sample_node.cpuprofile
