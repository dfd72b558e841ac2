./spaa-hotspots --metric ct --net tests/data/spx/recursion.json
