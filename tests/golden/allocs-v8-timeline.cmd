./spaa-allocs --limit 5 tests/data/allocs_v8_heaptimeline.spaa.gz
