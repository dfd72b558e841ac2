./spaa-hotspots tests/data/bad/type_not_string.spaa
