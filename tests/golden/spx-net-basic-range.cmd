./spaa-hotspots --metric zm --net --begin 1700000000000000040 tests/data/spx/basic.json
