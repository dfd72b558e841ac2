./spaa-hotspots --format text --begin 1700000002500000000 --end 1700000002900000000 tests/data/ctf/text
