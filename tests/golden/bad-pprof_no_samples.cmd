./spaa-hotspots tests/data/bad/pprof_no_samples.pb
