./spaa-hotspots tests/data/bad/v8_lengths_differ.cpuprofile
