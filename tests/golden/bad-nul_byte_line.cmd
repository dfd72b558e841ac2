./spaa-hotspots tests/data/bad/nul_byte_line.spaa
