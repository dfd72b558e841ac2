./spaa-hotspots tests/data/bad/not_elf.spaa
