./spaa-hotspots tests/data/bad/pprof_unknown_function.pb
