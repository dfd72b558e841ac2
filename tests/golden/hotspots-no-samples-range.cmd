./spaa-hotspots --begin 100000000000 --end 100500000000 tests/data/basic.spaa
