./spaa-phases --max-phases 2 tests/data/phases_abia.spaa
