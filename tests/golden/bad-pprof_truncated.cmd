./spaa-hotspots tests/data/bad/pprof_truncated.pb
