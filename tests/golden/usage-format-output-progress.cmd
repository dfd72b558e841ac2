./spaa-hotspots --format text --output-progress tests/data/basic.spaa
