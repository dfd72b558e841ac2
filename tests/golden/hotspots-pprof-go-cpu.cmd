./spaa-hotspots --limit 5 tests/data/pprof/go_cpu.pb.gz
