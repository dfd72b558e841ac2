./spaa-hotspots tests/data/bad/v8_unknown_child.cpuprofile
