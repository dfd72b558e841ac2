./spaa-hotspots tests/data/bad/pprof_unknown_location.pb
