./spaa-phases tests/data/spx/basic.json
