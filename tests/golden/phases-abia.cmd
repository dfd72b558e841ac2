./spaa-phases --by-thread tests/data/phases_abia.spaa
