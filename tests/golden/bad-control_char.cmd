./spaa-hotspots tests/data/bad/control_char.spaa
