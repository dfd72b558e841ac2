./spaa-hotspots --format csv tests/data/overflow.spaa
