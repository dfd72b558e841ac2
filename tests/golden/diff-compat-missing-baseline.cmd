./spaa-diff --test-compatibility tests/data/diff_doubled.spaa --baseline tests/data/nope.spaa
