./spaa-hotspots tests/data/bad/v8_duplicate_id.cpuprofile
