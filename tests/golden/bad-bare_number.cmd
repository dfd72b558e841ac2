./spaa-hotspots tests/data/bad/bare_number.spaa
