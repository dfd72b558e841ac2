./spaa-diff --limit 1 tests/data/basic.spaa - < tests/data/diff_doubled.spaa.gz
