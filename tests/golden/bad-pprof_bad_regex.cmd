./spaa-hotspots tests/data/bad/pprof_bad_regex.pb
