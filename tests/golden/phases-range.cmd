./spaa-phases --begin 103000000000 --end 105999999999 tests/data/phases_abia.spaa
