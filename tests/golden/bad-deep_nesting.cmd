./spaa-hotspots tests/data/bad/deep_nesting.spaa
