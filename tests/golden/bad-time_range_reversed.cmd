./spaa-hotspots tests/data/bad/time_range_reversed.spaa
