./spaa-hotspots --format text --begin 10110000000 --end 10190000000 tests/data/samples.spaa
