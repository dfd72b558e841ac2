./spaa-phases --focus '(' tests/data/phases_abia.spaa
