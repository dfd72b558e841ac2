./spaa-convert tests/data/spx/names.json | ./spaa-validate -
