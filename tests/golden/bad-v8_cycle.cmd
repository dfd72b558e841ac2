./spaa-hotspots tests/data/bad/v8_cycle.cpuprofile
