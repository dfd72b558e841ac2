./spaa-hotspots tests/data/bad/v8_truncated.cpuprofile
