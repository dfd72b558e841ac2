./spaa-phases --begin 100006000000 --end 100014000000 tests/data/phases_abia.spaa
