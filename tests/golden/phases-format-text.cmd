./spaa-phases --format text --limit 4 tests/data/phases_abia.spaa
