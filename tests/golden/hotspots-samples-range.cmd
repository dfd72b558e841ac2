./spaa-hotspots --begin 10250000000 --end 10650000000 tests/data/samples.spaa
