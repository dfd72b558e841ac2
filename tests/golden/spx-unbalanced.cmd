./spaa-hotspots tests/data/spx/unbalanced.json
