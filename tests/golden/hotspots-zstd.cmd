./spaa-hotspots tests/data/basic.spaa.zst
