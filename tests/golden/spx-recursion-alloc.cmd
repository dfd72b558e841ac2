./spaa-hotspots --event spx-alloc tests/data/spx/recursion.json
