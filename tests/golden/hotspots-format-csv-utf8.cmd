./spaa-hotspots --format=csv tests/data/text_utf8.spaa
