./spaa-convert --from spx - < tests/data/spx/basic.json
