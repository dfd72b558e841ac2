./spaa-hotspots --net tests/data/spx/basic.json
