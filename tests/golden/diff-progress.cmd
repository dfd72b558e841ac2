./spaa-diff --output-progress --limit 1 tests/data/basic.spaa tests/data/diff_doubled.spaa
