./spaa-hotspots --metric cache-misses tests/data/basic.spaa
