./spaa-hotspots tests/data/bad/pprof_duplicate_id.pb
