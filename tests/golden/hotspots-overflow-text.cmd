./spaa-hotspots --format text tests/data/limits/overflow.spaa
