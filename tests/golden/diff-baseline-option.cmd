./spaa-diff --baseline=tests/data/basic.spaa --limit 2 tests/data/diff_doubled.spaa
