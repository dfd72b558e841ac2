./spaa-diff --test-compatibility tests/data/diff_doubled.spaa
