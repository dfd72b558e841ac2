./spaa-convert tests/data/spx/basic.json
