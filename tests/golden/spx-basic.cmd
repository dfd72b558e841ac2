./spaa-hotspots tests/data/spx/basic.json
