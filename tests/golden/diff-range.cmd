./spaa-diff --begin 10200000000 --end 10600000000 tests/data/samples.spaa tests/data/samples.spaa
