./spaa-hotspots tests/data/bad/sum_overflow.spaa
