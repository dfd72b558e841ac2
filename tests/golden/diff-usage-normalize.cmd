./spaa-diff --normalize bogus tests/data/basic.spaa tests/data/diff_doubled.spaa
