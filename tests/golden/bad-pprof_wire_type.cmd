./spaa-hotspots tests/data/bad/pprof_wire_type.pb
