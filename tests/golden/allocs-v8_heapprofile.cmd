./spaa-allocs --limit 5 tests/data/v8/node_sampling.heapprofile
