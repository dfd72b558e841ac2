./spaa-hotspots tests/data/basic.spaa.gz
