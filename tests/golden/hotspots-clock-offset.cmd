./spaa-hotspots --format text --clock-offset 1700000000250000000 --begin 1700000002500000000 --end 1700000002900000000 tests/data/ctf/text/run.spaa
