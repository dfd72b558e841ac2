./spaa-hotspots --metric zm --net tests/data/spx/basic.json
