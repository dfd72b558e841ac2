./spaa-diff --normalize total tests/data/basic.spaa tests/data/diff_doubled.spaa
