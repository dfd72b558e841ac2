./spaa-hotspots tests/data/samples.spaa
