./spaa-phases --bin-width 1us tests/data/phases_abia.spaa
