./spaa-hotspots --format csv tests/data/limits/overflow.spaa
