./spaa-diff --format text --width 100 tests/data/basic.spaa tests/data/diff_renamed.spaa
