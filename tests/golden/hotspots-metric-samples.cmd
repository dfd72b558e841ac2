./spaa-hotspots --metric samples tests/data/basic.spaa
