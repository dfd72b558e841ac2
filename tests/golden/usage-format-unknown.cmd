./spaa-hotspots --format yaml tests/data/basic.spaa
