./spaa-hotspots tests/data/spx/recursion.json
