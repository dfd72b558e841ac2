./spaa-phases --format csv --limit 4 tests/data/phases_abia.spaa
