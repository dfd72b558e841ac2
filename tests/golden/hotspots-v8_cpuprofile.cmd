./spaa-hotspots --limit 5 tests/data/v8/node_work.cpuprofile
