./spaa-hotspots tests/data/bad/dangling_link.spaa
