./spaa-phases --bin-width 10 tests/data/phases_abia.spaa
