./spaa-phases --limit 4 tests/data/v8/node_work.cpuprofile
