./spaa-hotspots tests/data/bad/huge_time.spaa
