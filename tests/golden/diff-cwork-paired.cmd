./spaa-diff --format text --width 100 --limit 3 tests/data/diff_cwork_baseline.spaa.zst tests/data/diff_cwork_hashslow.spaa.zst
