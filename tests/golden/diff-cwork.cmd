./spaa-diff --limit 3 --dso-map /tmp/ceo/diff/cwork=/tmp/ceo/diff/cwork_hashslow tests/data/diff_cwork_baseline.spaa.zst tests/data/diff_cwork_hashslow.spaa.zst
