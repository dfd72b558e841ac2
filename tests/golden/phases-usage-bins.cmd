./spaa-phases --bins 5 --bin-width 1s tests/data/phases_abia.spaa
