./spaa-diff --format text --width 100 --no-dso-pairing tests/data/basic.spaa tests/data/diff_renamed.spaa
