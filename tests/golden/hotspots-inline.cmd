./spaa-hotspots tests/data/inline.spaa
