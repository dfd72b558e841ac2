./spaa-hotspots --limit lots tests/data/basic.spaa
