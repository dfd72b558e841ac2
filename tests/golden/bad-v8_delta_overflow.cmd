./spaa-hotspots tests/data/bad/v8_delta_overflow.cpuprofile
