./spaa-hotspots --begin 1700000000000000000 --end 1700000000000000014 tests/data/spx/basic.json
