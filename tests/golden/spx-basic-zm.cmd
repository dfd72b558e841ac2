./spaa-hotspots --metric zm tests/data/spx/basic.json
