./spaa-diff --format csv tests/data/basic.spaa tests/data/diff_doubled.spaa
