./spaa-phases --penalty 1e-3 tests/data/phases_abia.spaa
