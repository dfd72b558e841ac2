./spaa-diff --begin 100 --end 200 tests/data/basic.spaa tests/data/diff_doubled.spaa
