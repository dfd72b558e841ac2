./spaa-hotspots --begin 5 --end 4 tests/data/basic.spaa
