./spaa-hotspots tests/data/bad/exp_overflow_time.spaa
