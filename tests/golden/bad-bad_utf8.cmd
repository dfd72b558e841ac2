./spaa-hotspots tests/data/bad/bad_utf8.spaa
