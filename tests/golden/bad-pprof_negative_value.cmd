./spaa-hotspots tests/data/bad/pprof_negative_value.pb
