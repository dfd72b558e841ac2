./spaa-hotspots --event cycles tests/data/basic.spaa
