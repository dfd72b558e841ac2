./spaa-hotspots --format text tests/data/no-such-file.spaa
