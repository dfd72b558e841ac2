./spaa-hotspots tests/data/bad/exp_overflow.spaa
