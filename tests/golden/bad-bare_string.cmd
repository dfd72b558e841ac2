./spaa-hotspots tests/data/bad/bare_string.spaa
