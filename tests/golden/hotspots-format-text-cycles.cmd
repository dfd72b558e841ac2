./spaa-hotspots --format text --event cycles tests/data/multi_event.spaa
