./spaa-hotspots tests/data/bad/overlong_utf8.spaa
