./spaa-hotspots tests/data/bad/two_pow64_time.spaa
