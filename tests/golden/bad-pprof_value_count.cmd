./spaa-hotspots tests/data/bad/pprof_value_count.pb
