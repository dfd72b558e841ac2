./spaa-hotspots tests/data/bad/v8_float_delta.cpuprofile
