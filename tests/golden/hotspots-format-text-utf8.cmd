./spaa-hotspots --format text tests/data/text_utf8.spaa
