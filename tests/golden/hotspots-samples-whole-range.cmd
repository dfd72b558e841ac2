./spaa-hotspots --begin 10000000000 --end 11000000000 tests/data/samples.spaa
