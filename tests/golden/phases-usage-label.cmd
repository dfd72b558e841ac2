./spaa-phases --label '(' tests/data/phases_abia.spaa
