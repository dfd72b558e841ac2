./spaa-hotspots tests/data/bad/pprof_string_index_drop.pb
