./spaa-allocs --limit 5 tests/data/pprof/go_heap.pb.gz
