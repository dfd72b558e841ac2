./spaa-hotspots --children tests/data/basic.spaa
