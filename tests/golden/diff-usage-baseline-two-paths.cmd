./spaa-diff --baseline=tests/data/basic.spaa tests/data/basic.spaa tests/data/diff_doubled.spaa
