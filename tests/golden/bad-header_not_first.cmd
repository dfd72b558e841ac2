./spaa-hotspots tests/data/bad/header_not_first.spaa
