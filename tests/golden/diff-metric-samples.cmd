./spaa-diff --metric samples --limit 4 tests/data/basic.spaa tests/data/diff_doubled.spaa
