./spaa-hotspots --metric ct- tests/data/spx/recursion.json
