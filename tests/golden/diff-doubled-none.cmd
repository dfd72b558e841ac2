./spaa-diff --normalize=none tests/data/basic.spaa tests/data/diff_doubled.spaa
