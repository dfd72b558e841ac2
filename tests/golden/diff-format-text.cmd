./spaa-diff --format text tests/data/basic.spaa tests/data/diff_doubled.spaa
