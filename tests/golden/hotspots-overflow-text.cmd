./spaa-hotspots --format text tests/data/overflow.spaa
