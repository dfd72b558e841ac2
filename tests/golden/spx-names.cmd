./spaa-hotspots tests/data/spx/names.json
