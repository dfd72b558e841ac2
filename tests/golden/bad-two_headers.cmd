./spaa-hotspots tests/data/bad/two_headers.spaa
